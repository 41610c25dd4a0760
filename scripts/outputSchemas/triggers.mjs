// @ts-check
/**
 * The triggers' output schemas: one per node version (their items do not depend on a resource or
 * an operation, so n8n's server looks for `__schema__/v<x.y.z>.json` in their folders).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

import { versionFolder } from './operations.mjs';
import { answerOf, entriesOf, extended, nullable, ROOT, STRING } from './schemas.mjs';

/** @typedef {import('./schemas.mjs').Schema} Schema */

const require = createRequire(import.meta.url);
const { requireTypeScript } = require('../tsRequire.cjs');

const NULLABLE_STRING = { type: ['string', 'null'] };

/**
 * One item of each trigger, written from what its output code builds: the log trigger's
 * (IntegrationPlatformLogTrigger/output.ts `toItem`, plus the installation when it watches one,
 * and `redelivered` from handOff.ts)
 * starts from the API's log entry; the event trigger's (IntegrationPlatformTrigger/events.ts
 * `buildItems`) depends on the message, so its schema names what every item carries and leaves
 * the rest open.
 *
 * @type {Record<string, () => Schema>}
 */
const TRIGGER_SCHEMAS = {
	IntegrationPlatformLogTrigger: () => {
		const entry = entriesOf(answerOf('listOperationLogs'), 'listOperationLogs');
		const item = extended(
			{
				...entry,
				properties: Object.fromEntries(
					Object.entries(entry.properties).map(([name, schema]) => [name, nullable(schema)]),
				),
			},
			{
				timestampIso: NULLABLE_STRING,
				operationId: STRING,
				projectId: STRING,
				entryKey: STRING,
				installationId: NULLABLE_STRING,
				// only on the items of a poll that reads again what a killed main may have lost (handOff.ts)
				redelivered: { type: 'boolean' },
			},
			['timestamp', 'severity', 'message', 'timestampIso', 'operationId', 'projectId', 'entryKey'],
		);
		return { ...item, title: 'Log entry' };
	},
	IntegrationPlatformTrigger: () => ({
		title: 'Delivered message',
		type: 'object',
		properties: {
			event: {
				type: 'string',
				description:
					'read, subscribe, schema.watch or the notification type; with one item per record, the message is under `message`',
			},
			delivery: {
				type: 'object',
				properties: {
					id: STRING,
					timestamp: STRING,
					verified: { type: 'boolean' },
					receivedAt: STRING,
					headers: { type: 'object', additionalProperties: STRING },
				},
				required: ['verified', 'receivedAt', 'headers'],
			},
		},
		required: ['event', 'delivery'],
		additionalProperties: true,
	}),
};

/** The versions a trigger's description lists. */
function triggerVersions(/** @type {string} */ name) {
	const module = requireTypeScript(path.join(ROOT, 'nodes', name, `${name}.node.ts`));
	const { version } = new module[name]().description;
	return Array.isArray(version) ? version : [version];
}

/** The triggers' files: trigger folder → (path relative to its __schema__ → contents). */
export function triggerSchemaFiles() {
	/** @type {Record<string, Map<string, string>>} */
	const byTrigger = {};
	for (const [name, item] of Object.entries(TRIGGER_SCHEMAS)) {
		const schema = { $schema: 'http://json-schema.org/draft-07/schema#', ...item() };
		byTrigger[name] = new Map(
			triggerVersions(name).map((version) => [
				`${versionFolder(version)}.json`,
				`${JSON.stringify(schema, null, '\t')}\n`,
			]),
		);
	}
	return byTrigger;
}
