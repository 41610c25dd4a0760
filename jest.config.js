// Five projects: `unit` (pure modules, descriptions, simulator), `engine` (nodes run in-process by
// n8n-core's WorkflowExecute against the simulator), `e2e` (a real n8n 2.41.1 on Node 24,
// provisioned and started by test/harness; one instance per run, so it runs in band),
// `e2e-queue` (the same n8n in queue mode) and `e2e-versions` (a smoke of the package in the n8n
// N8N_RUNTIME_VERSION names).
const tsTransform = {
	'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
};
const common = {
	transform: tsTransform,
	testEnvironment: 'node',
	modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

/** @type {import('jest').Config} */
module.exports = {
	// Only honoured here, for all projects: moves the e2e secret scan to the end.
	testSequencer: '<rootDir>/test/harness/e2eSequencer.js',
	// One timeout for every layer, and only here: Jest 30 ignores a project's testTimeout. It is a
	// deadline that catches a hang, not a speed goal (a busy machine must pass: npm run test:busy);
	// files whose tests run longer by design raise it with jest.setTimeout.
	testTimeout: 120_000,
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
		},
		{
			// The same n8n in queue mode (Redis + main + workers + a webhook process), one cluster
			// per run; run it after `e2e`, in band (test/harness/queueGlobalSetup.js).
			displayName: 'e2e-queue',
			testMatch: ['<rootDir>/test/e2e-queue/**/*.test.{ts,js}'],
			...common,
			globalSetup: '<rootDir>/test/harness/queueGlobalSetup.js',
			globalTeardown: '<rootDir>/test/harness/queueGlobalTeardown.js',
		},
		{
			// The version smoke: the e2e harness against the n8n N8N_RUNTIME_VERSION names (a folder
			displayName: 'e2e-versions',
			testMatch: ['<rootDir>/test/e2e-versions/**/*.test.{ts,js}'],
			...common,
			globalSetup: '<rootDir>/test/harness/globalSetup.js',
			globalTeardown: '<rootDir>/test/harness/globalTeardown.js',
		},
	],
};
