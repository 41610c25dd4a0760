// Keeps jest's own order, except that the e2e secret scan runs last: it checks what the whole
// suite left in n8n (logs, executions, static data). The e2e project runs in band, so last also
// means after the others have finished.
const Sequencer = require('@jest/test-sequencer').default;

const isSecretScan = (test) => /secretScan\.test\./.test(test.path);

class E2eSequencer extends Sequencer {
	async sort(tests) {
		const sorted = await super.sort(tests);
		return [...sorted.filter((t) => !isSecretScan(t)), ...sorted.filter(isSecretScan)];
	}
}

module.exports = E2eSequencer;
