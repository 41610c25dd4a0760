import { describeNetworkFailure, networkErrorCode } from '../../../nodes/common/network';

describe('network failures', () => {
	test('a known code is described with the host', () => {
		const error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
		expect(networkErrorCode(error)).toBe('ECONNREFUSED');
		expect(describeNetworkFailure(error, 'api.example.com')?.message).toBe(
			'The Integration Platform API at api.example.com refused the connection',
		);
	});

	test.each(['__proto__', 'constructor', 'hasOwnProperty', 'toString'])(
		'an error code %s is no network failure',
		(code) => {
			const error = Object.assign(new Error('odd'), { code });
			expect(networkErrorCode(error)).toBeUndefined();
			expect(describeNetworkFailure(error, 'api.example.com')).toBeUndefined();
		},
	);
});
