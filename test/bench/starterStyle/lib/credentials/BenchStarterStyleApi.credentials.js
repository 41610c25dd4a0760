// The credential as the starter writes it: generic authentication with an expression.
class BenchStarterStyleApi {
	constructor() {
		this.name = 'benchStarterStyleApi';
		this.displayName = 'Bench Starter Style API';
		this.properties = [
			{
				displayName: 'API Key',
				name: 'apiKey',
				type: 'string',
				typeOptions: { password: true },
				default: '',
			},
			{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
		];
		this.authenticate = {
			type: 'generic',
			properties: { headers: { 'X-Api-Key': '={{$credentials.apiKey}}' } },
		};
	}
}
module.exports = { BenchStarterStyleApi };
