import { holdsKeyAxiosDrops, withWholeJsonBody } from '../../../nodes/common/jsonBody';

const parsed = (text: string): unknown => JSON.parse(text);

describe('holdsKeyAxiosDrops', () => {
	test.each(['__proto__', 'constructor', 'prototype'])('finds "%s" at any depth', (key) => {
		expect(holdsKeyAxiosDrops(parsed(`{"${key}":1}`))).toBe(true);
		expect(holdsKeyAxiosDrops(parsed(`{"a":[{"b":{"${key}":null}}]}`))).toBe(true);
	});

	test('ordinary keys, names every object has but axios keeps, and non-objects: no', () => {
		expect(holdsKeyAxiosDrops({ a: 1, toString: 'x', hasOwnProperty: 2 })).toBe(false);
		expect(holdsKeyAxiosDrops('{"constructor":1}')).toBe(false);
		expect(holdsKeyAxiosDrops(undefined)).toBe(false);
		expect(holdsKeyAxiosDrops([1, 'two', null])).toBe(false);
	});

	test('a body that refers to itself ends', () => {
		const body: Record<string, unknown> = { a: 1 };
		body.self = body;
		expect(holdsKeyAxiosDrops(body)).toBe(false);
	});
});

describe('withWholeJsonBody', () => {
	test('a body without such keys is left as it is', () => {
		const options = { body: { a: 1 }, headers: { 'x-a': 'b' } };
		expect(withWholeJsonBody(options)).toBe(options);
	});

	test('a body with one becomes its JSON text, labelled JSON', () => {
		const body = parsed('{"records":[{"fields":{"constructor":"c","__proto__":"p"}}]}');
		const sent = withWholeJsonBody<{
			method: string;
			body: unknown;
			headers?: Record<string, string>;
		}>({
			method: 'POST',
			body,
		});
		expect(sent.body).toBe('{"records":[{"fields":{"constructor":"c","__proto__":"p"}}]}');
		expect(sent.headers).toEqual({ 'Content-Type': 'application/json' });
		expect(sent.method).toBe('POST');
	});

	test('a content type the request names is kept', () => {
		const sent = withWholeJsonBody({
			body: parsed('{"prototype":1}'),
			headers: { 'content-type': 'application/merge-patch+json' },
		});
		expect(sent.headers).toEqual({ 'content-type': 'application/merge-patch+json' });
		expect(sent.body).toBe('{"prototype":1}');
	});
});
