// Three projects: `unit` (pure modules, descriptions, simulator), `engine` (nodes run in-process by
// n8n-core's WorkflowExecute against the simulator) and `e2e` (a real n8n 2.41.1 on Node 24,
// provisioned and started by test/harness; one instance per run, so it runs in band).
const tsTransform = {
	'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
};
const common = { transform: tsTransform, testEnvironment: 'node', modulePathIgnorePatterns: ['<rootDir>/dist/'] };

/** @type {import('jest').Config} */
module.exports = {
	projects: [
		{
			displayName: 'unit',
			testMatch: ['<rootDir>/test/unit/**/*.test.{ts,js}'],
			...common,
		},
		{
			displayName: 'engine',
			testMatch: ['<rootDir>/test/engine/**/*.test.{ts,js}'],
			...common,
			setupFiles: ['<rootDir>/test/harness/engineEnv.js'],
		},
		{
			displayName: 'e2e',
			testMatch: ['<rootDir>/test/e2e/**/*.test.{ts,js}'],
			...common,
			globalSetup: '<rootDir>/test/harness/globalSetup.js',
			globalTeardown: '<rootDir>/test/harness/globalTeardown.js',
			testTimeout: 120000,
		},
	],
};
