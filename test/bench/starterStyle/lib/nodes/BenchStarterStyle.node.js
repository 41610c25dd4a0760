// Destination → Get as the starter's GithubIssues node would build it: baseURL from the credential
// and the path from parameter expressions, both evaluated per item by n8n's routing engine.
class BenchStarterStyle {
	constructor() {
		this.description = {
			displayName: 'Bench Starter Style',
			name: 'benchStarterStyle',
			group: ['transform'],
			version: 1,
			defaults: { name: 'Bench Starter Style' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'benchStarterStyleApi', required: true }],
			requestDefaults: {
				baseURL: '={{$credentials.baseUrl}}/v1',
				headers: { Accept: 'application/json' },
			},
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					noDataExpression: true,
					default: 'get',
					options: [
						{
							name: 'Get',
							value: 'get',
							routing: {
								request: {
									method: 'GET',
									url: '=/projects/{{$parameter.project}}/destinations/{{$parameter.destination}}',
								},
							},
						},
					],
				},
				{ displayName: 'Project', name: 'project', type: 'string', default: '' },
				{ displayName: 'Destination', name: 'destination', type: 'string', default: '' },
			],
		};
	}
}
module.exports = { BenchStarterStyle };
