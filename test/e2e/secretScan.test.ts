/**
 * Runs last in the e2e project (test/harness/e2eSequencer.js): after the whole suite, looks for
 * every secret the simulators issued or received (API keys, bearer tokens, webhook signing keys,
 * provider credentials; test/simulator/secretLog.js) in what n8n kept:
 * - its log file,
 * - the run data of every execution (node outputs and errors; not the workflow definitions,
 *   which hold what users typed into parameters),
 * - the static data of every workflow.
 * The only place a secret may appear is an output the user asked for (Destination → Include
 * Secrets, Connection → Include Credentials in Output, API Key → Create, whose output is the new
 * key); the suite asks for none but the new key.
 */
import * as fs from 'node:fs';

import { n8nClient } from '../harness/e2eContext';

interface Finding {
	where: string;
	secret: string;
	context: string;
}

const mask = (secret: string) => `${secret.slice(0, 4)}…(${secret.length} chars)`;

function findIn(where: string, text: string, secrets: string[]): Finding[] {
	const findings: Finding[] = [];
	for (const secret of secrets) {
		const at = text.indexOf(secret);
		if (at === -1) continue;
		const context = text
			.slice(Math.max(0, at - 80), at + secret.length + 40)
			.split(secret)
			.join('<SECRET>');
		findings.push({ where, secret: mask(secret), context });
	}
	return findings;
}

/** Whether a run's workflow asked for secrets in its output (the documented exceptions). */
function askedForSecrets(
	workflowData: { nodes?: Array<{ parameters?: Record<string, unknown> }> } | undefined,
): boolean {
	return (workflowData?.nodes ?? []).some((node) => {
		const p = node.parameters ?? {};
		const options = (p.options ?? {}) as Record<string, unknown>;
		const connectionOptions = (p.connectionOptions ?? {}) as Record<string, unknown>;
		// API Key → Create outputs the new key: the key is what the user asked for.
		const createsApiKey = p.resource === 'apiKey' && p.operation === 'create';
		return (
			options.includeSecrets === true || connectionOptions.includeSecrets === true || createsApiKey
		);
	});
}

test('no secret used in the suite appears in n8n logs, execution data or static data', async () => {
	const n8n = n8nClient();
	const info = JSON.parse(fs.readFileSync(process.env.N8N_E2E_INFO!, 'utf8')) as {
		logFile: string;
	};
	const secrets = [
		...new Set(
			fs
				.readFileSync(process.env.SIM_SECRETS_FILE!, 'utf8')
				.split('\n')
				.map((s) => s.trim())
				.filter((s) => s.length >= 6),
		),
	];

	const findings: Finding[] = [];
	const log = fs.readFileSync(info.logFile, 'utf8');
	findings.push(...findIn('n8n log', log, secrets));

	let executions = 0;
	let exempt = 0;
	let cursor = '';
	do {
		const page = await n8n.api(
			'GET',
			`/executions?includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		);
		for (const execution of page.data as Array<{
			id: string;
			data?: { resultData?: unknown };
			workflowData?: never;
		}>) {
			executions++;
			if (askedForSecrets(execution.workflowData)) {
				exempt++;
				continue;
			}
			findings.push(
				...findIn(
					`execution ${execution.id} run data`,
					JSON.stringify(execution.data?.resultData ?? {}),
					secrets,
				),
			);
		}
		cursor = page.nextCursor ?? '';
	} while (cursor);

	let workflows = 0;
	cursor = '';
	do {
		const page = await n8n.api('GET', `/workflows?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
		for (const workflow of page.data as Array<{ id: string; staticData?: unknown }>) {
			workflows++;
			findings.push(
				...findIn(
					`workflow ${workflow.id} static data`,
					JSON.stringify(workflow.staticData ?? {}),
					secrets,
				),
			);
		}
		cursor = page.nextCursor ?? '';
	} while (cursor);

	process.stderr.write(
		`\n[e2e] secret scan: ${secrets.length} secrets × (n8n log ${(log.length / 1024).toFixed(0)} KB, ${executions} executions (${exempt} that asked for secrets skipped), ${workflows} workflows' static data): ${findings.length} found\n`,
	);
	// The scan must have had something to scan, or it proves nothing.
	expect(secrets.length).toBeGreaterThanOrEqual(7);
	expect(executions).toBeGreaterThanOrEqual(20);
	expect(log.length).toBeGreaterThan(10_000);
	// And it must be able to find a secret where there is one.
	expect(findIn('control', `x ${secrets[0]} y`, secrets)).toHaveLength(1);
	expect(findings).toEqual([]);
});
