// n8n's community-node lint rules (the ones the verification scan applies) on the shipped code:
// credentials/, nodes/ and package.json. Tests, the simulator and scripts are tooling, not shipped
// (files: ["dist"]), and legitimately use process, timers and the like.
import { config } from '@n8n/node-cli/eslint';

export default [
	{
		ignores: ['dist/**', 'test/**', 'examples/**', 'scripts/**', 'coverage/**', 'gulpfile.js', 'index.js', 'jest.config.js'],
	},
	...config,
];
