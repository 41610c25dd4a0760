import {
	apiPath,
	checkPathSegment,
	encodePathSegment,
	MAX_PATH_VALUE_LENGTH,
} from '../../../nodes/common/paths';

describe('encodePathSegment', () => {
	test.each([
		['plain-id_1', 'plain-id_1'],
		['a/b', 'a%2Fb'],
		['a?b=c', 'a%3Fb%3Dc'],
		['a#b', 'a%23b'],
		['100%', '100%25'],
		['..', '%2E%2E'],
		['.', '%2E'],
		['...', '...'],
		['über', '%C3%BCber'],
		['a b', 'a%20b'],
	])('%p → %p', (value, encoded) => expect(encodePathSegment(value)).toBe(encoded));

	test('no value can leave its segment', () => {
		for (const value of ['../../orgs', '/x', '?a=1', '#frag', '%2F', '..%2F..']) {
			const segment = encodePathSegment(value);
			const url = new URL(`https://api.example/v1/projects/${segment}/topics`);
			expect(url.pathname.split('/')).toHaveLength(5);
			expect(url.search).toBe('');
			expect(url.hash).toBe('');
			expect(decodeURIComponent(url.pathname.split('/')[3])).toBe(value);
		}
	});
});

describe('checkPathSegment', () => {
	test('trims and accepts text and numbers', () => {
		expect(checkPathSegment('Project', '  demo  ')).toBe('demo');
		expect(checkPathSegment('Topic', 42)).toBe('42');
	});

	test.each([
		[undefined, '"Project" is empty'],
		['', '"Project" is empty'],
		['   ', '"Project" is empty'],
		[{ a: 1 }, '"Project" must be text, but its value is object'],
		[['a'], '"Project" must be text, but its value is a list'],
		[true, '"Project" must be text, but its value is boolean'],
		[
			'x'.repeat(MAX_PATH_VALUE_LENGTH + 1),
			`"Project" is ${MAX_PATH_VALUE_LENGTH + 1} characters long`,
		],
	])('%p is refused with a reason naming the parameter', (value, problem) => {
		const checked = checkPathSegment('Project', value);
		expect(typeof checked).toBe('object');
		expect((checked as { problem: string }).problem).toContain(problem);
	});
});

describe('apiPath', () => {
	test('encodes each value as one segment', () => {
		expect(apiPath`/projects/${'my project'}/destinations/${'a/b'}`).toBe(
			'/projects/my%20project/destinations/a%2Fb',
		);
	});

	test.each(['.', '..', '', undefined])('refuses %p, which would not be one segment', (value) => {
		expect(() => apiPath`/projects/${value}/topics`).toThrow(/path value/);
	});
});
