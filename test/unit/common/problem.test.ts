import {
	bodyExcerpt,
	maskText,
	maskValue,
	redact,
	summarizeProblem,
} from '../../../nodes/common/problem';

describe('summarizeProblem', () => {
	test('InputValidationProblem: title, detail, every issue with location, name, reason and value', () => {
		const p = summarizeProblem(400, {
			type: 'https://httpstatuses.com/400',
			title: 'Bad Request',
			status: 400,
			detail: 'The request body is invalid',
			requestId: 'req-1',
			issues: [
				{ in: 'body', name: 'groupRef', value: 42, detail: 'groupRef must be a string' },
				{ in: 'query', name: 'connectionId', detail: 'is required' },
			],
		});
		expect(p.issues).toEqual([
			'body field groupRef: must be a string (got 42)',
			'query parameter connectionId: is required',
		]);
		expect(p.message).toBe(
			'Bad Request: The request body is invalid — body field groupRef: must be a string (got 42); query parameter connectionId: is required [HTTP 400, request req-1]',
		);
		// The message says the detail and the inputs; the description does not repeat them.
		expect(p.description.split('\n')).toEqual(['HTTP status 400, request ID req-1.']);
	});

	test('inputs named by the fields behind them, and a detail an input repeats said once', () => {
		// A wrong project name, as the service answers it (docs/api-notes.md, "Problem documents").
		const p = summarizeProblem(
			404,
			{
				title: 'Not Found',
				detail: 'Project not found',
				requestId: 'req-2',
				issues: [
					{ in: 'path', name: 'projectIdOrName', value: 'nope', detail: 'Project not found' },
				],
			},
			{},
			[],
			Date.now(),
			(input) => (input.in === 'path' && input.name === 'projectIdOrName' ? 'Project' : undefined),
		);
		expect(p.message).toBe(
			'Not Found — "Project": Project not found (got "nope") [HTTP 404, request req-2]',
		);
		expect(p.message.match(/Project not found/g)).toHaveLength(1);
		expect(p.description).not.toContain('Project not found');
		expect(p.description).not.toContain('projectIdOrName');
		expect(p.description.split('\n')).toEqual([
			'What to do: Check the IDs and names in the node parameters; the resource may have been deleted.',
			'HTTP status 404, request ID req-2.',
		]);
	});

	test('an issue whose `in` or name is a prototype name reads as an ordinary name', () => {
		const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
		const body = JSON.parse(
			JSON.stringify({
				title: 'Bad Request',
				issues: names.map((name) => ({ in: name, name, detail: 'is invalid' })),
			}),
		);
		const p = summarizeProblem(400, body, {}, [], Date.now(), () => undefined);
		expect(p.issues).toEqual(names.map((name) => `${name} ${name}: is invalid`));
	});

	test('an input no field stands behind keeps the API’s name', () => {
		const p = summarizeProblem(
			400,
			{ title: 'Bad Request', issues: [{ in: 'query', name: 'pageSize', detail: 'too large' }] },
			{},
			[],
			Date.now(),
			() => undefined,
		);
		expect(p.issues).toEqual(['query parameter pageSize: too large']);
	});

	test('JWT-key variant: validationIssues with field and remedy', () => {
		const p = summarizeProblem(400, {
			title: 'Bad Request',
			detail: 'Invalid update mask',
			validationIssues: [
				{
					field: 'updateMask',
					value: ['nme'],
					detail: 'unknown mask entry',
					remedy: "Allowed masks: 'active' and 'label'",
				},
			],
		});
		expect(p.issues).toEqual(['updateMask: unknown mask entry (got ["nme"])']);
		// The issue is in the message; its remedy, once, in the description.
		expect(p.message).toContain('updateMask: unknown mask entry (got ["nme"])');
		expect(p.description).toContain("updateMask: Allowed masks: 'active' and 'label'");
		expect(p.description).not.toContain('unknown mask entry');
	});

	test('values of secret inputs are never shown; long values are cut', () => {
		const p = summarizeProblem(422, {
			title: 'Unprocessable Entity',
			issues: [
				{
					in: 'body',
					name: 'oauth2ClientCredentials.clientSecret',
					value: 'cs-very-secret',
					detail: 'too short',
				},
				{ in: 'body', name: 'apiKey', value: 'k-123456', detail: 'bad' },
				{ in: 'path', name: 'keyId', value: 'abc', detail: 'not found' },
				{ in: 'body', name: 'note', value: 'x'.repeat(200), detail: 'too long' },
			],
		});
		expect(p.message).not.toContain('cs-very-secret');
		expect(p.message).not.toContain('k-123456');
		expect(p.issues[0]).toBe(
			'body field oauth2ClientCredentials.clientSecret: too short (value hidden)',
		);
		expect(p.issues[2]).toBe('path parameter keyId: not found (got "abc")');
		expect(p.issues[3].length).toBeLessThan(120);
	});

	test('secrets passed in are masked everywhere, including the detail', () => {
		const p = summarizeProblem(
			404,
			{ title: 'Not Found', detail: 'API key amp_live_secret_1 not found' },
			{},
			['amp_live_secret_1'],
		);
		expect(p.message).toBe('Not Found: API key [redacted] not found [HTTP 404]');
		expect(p.description).not.toContain('amp_live_secret_1');
		expect(p.detail).toBe('API key [redacted] not found');
	});

	test('not a problem document: an HTML error page becomes a short detail', () => {
		const p = summarizeProblem(
			502,
			'<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>',
		);
		expect(p.title).toBe('Bad Gateway');
		expect(p.message).toBe('Bad Gateway: 502 Bad Gateway nginx [HTTP 502]');
		expect(p.description).toContain('What to do: A gateway in front of the service failed');
	});

	test('empty body: the status gives the title and a hint', () => {
		const p = summarizeProblem(503, '');
		expect(p.message).toBe('Service Unavailable [HTTP 503]');
		expect(p.description).toContain('temporarily unavailable');
	});

	test('Retry-After in seconds, as a date, or the problem retryAfter', () => {
		const now = Date.parse('2026-01-01T00:00:00Z');
		expect(summarizeProblem(429, {}, { 'retry-after': '7' }, [], now).retryAfterSeconds).toBe(7);
		expect(
			summarizeProblem(429, {}, { 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, [], now)
				.retryAfterSeconds,
		).toBe(30);
		expect(
			summarizeProblem(429, { retryAfter: '2026-01-01T00:01:00Z', retryable: true }, {}, [], now)
				.retryAfterSeconds,
		).toBe(60);
		expect(summarizeProblem(429, {}, {}, [], now).description).toContain('Options → Batching');
	});

	test('the request id also comes from the X-Request-Id header', () => {
		expect(
			summarizeProblem(500, { title: 'Internal Server Error' }, { 'x-request-id': 'hdr-9' })
				.requestId,
		).toBe('hdr-9');
	});
});

describe('redact', () => {
	test('masks every occurrence, ignores very short strings', () => {
		expect(redact('a-key and a-key', ['a-key'])).toBe('[redacted] and [redacted]');
		expect(redact('abc', ['ab'])).toBe('abc');
	});
});

describe('a secret echoed by the service is masked in every field and form', () => {
	const secret = 'ak+live/Xy9=';
	const forms = [
		secret,
		encodeURIComponent(secret),
		encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		JSON.stringify(secret).slice(1, -1),
	];
	test.each(forms)('form %p', (form) => {
		const p = summarizeProblem(
			404,
			{
				title: `API key ${form} not found`,
				detail: `No key ${form} at /api-keys/${form}`,
				remedy: `Create ${form} again`,
				requestId: `req-${form}`,
				issues: [{ name: 'apiKey', in: 'path', detail: `unknown ${form}`, value: form }],
			},
			{ 'x-request-id': form },
			[secret],
		);
		const everything = JSON.stringify(p);
		for (const shown of forms) expect(everything).not.toContain(shown);
		expect(p.title).toBe('API key [redacted] not found');
	});
});

describe('bodyExcerpt', () => {
	test('masks secret-named fields (also cut off) and given secrets in the first bytes', () => {
		const body =
			'[{"key":"amp_sim_demo_key_0001","label":"demo key","clientSecret":"a\\"b","note":"tok-123"},{"key":"amp_sim_de';
		const shown = bodyExcerpt(body, ['tok-123'], 200);
		expect(shown).not.toMatch(/amp_sim|a\\"b|tok-123/);
		expect(shown).toContain('"label\\":\\"demo key');
	});
});

describe('masking text an answer echoes (maskText, bodyExcerpt)', () => {
	const other = 'sk_live_0123456789abcdefXYZ';

	test.each([
		['a hyphenated JSON field', `{"x-api-key":"${other}","a":1}`, '"x-api-key":"[redacted]"'],
		['an underscored JSON field', `{"api_key": "${other}"}`, '"api_key":"[redacted]"'],
		[
			'a header written out',
			`Request headers: X-Api-Key: ${other}\nAccept: */*`,
			'X-Api-Key: [redacted]',
		],
		[
			'a bearer token written out',
			`authorization: Bearer ${other}`,
			'authorization: Bearer [redacted]',
		],
		['a query parameter', `GET /v1/x?api_key=${other}&page=2`, 'api_key=[redacted]&page=2'],
	])('%s is masked, though the key is not known', (_label, text, shown) => {
		const masked = maskText(text);
		expect(masked).not.toContain(other);
		expect(masked).toContain(shown);
		expect(bodyExcerpt(text, [], 300)).not.toContain(other);
	});

	test('short values after a credential header name stay readable', () => {
		expect(maskText('Authorization: missing')).toBe('Authorization: missing');
		expect(maskText('header x-api-key: required')).toBe('header x-api-key: required');
	});

	test('a known secret is masked in every form, also inside a header-shaped line', () => {
		const key = 'ak+live/Xy9=';
		const text = `x-api-key: ${key} ${encodeURIComponent(key)} ${JSON.stringify(key)}`;
		expect(maskText(text, [key])).toBe('x-api-key: [redacted] [redacted] "[redacted]"');
	});
});

describe('maskValue', () => {
	test('masks a secret in every string and key of a parsed answer, leaving the rest', () => {
		const key = 'ak+live/Xy9=';
		const answer = {
			echo: { headers: { 'x-api-key': key }, url: `/x?k=${encodeURIComponent(key)}` },
			list: [key, 1, null, true],
			[key]: 'as a key',
		};
		const masked = maskValue(answer, [key]);
		expect(JSON.stringify(masked)).not.toContain('Xy9');
		expect(masked).toEqual({
			echo: { headers: { 'x-api-key': '[redacted]' }, url: '/x?k=[redacted]' },
			list: ['[redacted]', 1, null, true],
			'[redacted]': 'as a key',
		});
		expect(maskValue(answer, [])).toBe(answer);
	});
});
