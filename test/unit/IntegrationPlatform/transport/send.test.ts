/**
 * The editor's lists ask through the node's request room (transport/send.ts, editorRequest): the
 * node's Request Options (Timeout, Proxy, Ignore SSL Issues) apply to them as to the requests the
 * node sends when it runs.
 */
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { searchTopics } from '../../../../nodes/IntegrationPlatform/listSearch/searches';
import { answeringContext } from '../../../harness/listSearch';

test('a list search goes out with Request Options → Timeout, Proxy and Ignore SSL Issues', async () => {
	const sent: Array<Record<string, unknown>> = [];
	const base = answeringContext(
		(request) => {
			sent.push(request as unknown as Record<string, unknown>);
			return { body: [{ id: 'topic-1', name: 'Orders' }] };
		},
		{ current: { project: 'project-1' } },
	);
	const requestOptions = {
		timeout: 5000,
		proxy: 'http://user:secret@proxy.example:3128',
		allowUnauthorizedCerts: true,
	};
	const context = {
		...base,
		getNodeParameter: (name: string, fallback?: unknown) =>
			name === 'requestOptions' ? requestOptions : base.getNodeParameter(name, fallback),
	} as ILoadOptionsFunctions;

	const result = await searchTopics.call(context);

	expect(result.results.map((entry) => entry.value)).toEqual(['topic-1']);
	expect(sent).toHaveLength(1);
	expect(sent[0]).toMatchObject({
		method: 'GET',
		url: '/projects/project-1/topics',
		timeout: 5000,
		proxy: {
			host: 'proxy.example',
			port: 3128,
			protocol: 'http',
			auth: { username: 'user', password: 'secret' },
		},
		skipSslCertificateValidation: true,
	});
});
