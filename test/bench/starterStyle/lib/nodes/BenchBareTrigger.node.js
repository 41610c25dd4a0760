// The least a community webhook trigger can do: no parameters, no verification, no expressions;
// it hands the body on. P2 runs it to show what n8n's webhook path costs any community trigger.
// Version 2: for version-1 webhook nodes n8n evaluates an options.binaryData expression per request.
class BenchBareTrigger {
	constructor() {
		this.description = {
			displayName: 'Bench Bare Trigger',
			name: 'benchBareTrigger',
			group: ['trigger'],
			version: 2,
			defaults: { name: 'Bench Bare Trigger' },
			inputs: [],
			outputs: ['main'],
			webhooks: [
				{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
			],
			properties: [],
		};
	}

	async webhook() {
		return { workflowData: [[{ json: this.getBodyData() }]] };
	}
}

module.exports = { BenchBareTrigger };
