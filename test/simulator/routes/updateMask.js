// @ts-check
'use strict';

/**
 * Field-mask updates shared by the project, API key and provider-app routes (docs/api-notes.md,
 * "The wider API"): `{ updateMask: [...], <object>: { ... } }`. Every mask entry must be allowed
 * and have its value in the object; values are validated with the object's schema; secret fields
 * are never echoed in issues.
 */

const { requireBody } = require('./common');
const { invalid, issue } = require('../problems');
const { validate } = require('../validate');

/** @typedef {import('../router').Ctx} Ctx @typedef {import('../validate').Schema} Schema */

/**
 * @param {Ctx} ctx
 * @param {string} objectKey e.g. 'project'
 * @param {Record<string, Schema>} fields the updatable fields and their schemas
 * @param {{ secretFields?: string[], status?: number }} [options]
 * @returns {Record<string, unknown>} the changes to apply, by field
 */
function maskedChanges(ctx, objectKey, fields, options = {}) {
	const allowed = Object.keys(fields);
	const remedy = `Allowed masks: ${allowed.map((m) => `'${m}'`).join(', ')}.`;
	/** @type {Schema} */
	const schema = {
		type: 'object',
		required: ['updateMask', objectKey],
		properties: {
			updateMask: { type: 'array', minItems: 1, items: { type: 'string' } },
			[objectKey]: { type: 'object' },
		},
	};
	let body;
	try {
		body = requireBody(ctx, schema, options.status);
	} catch (err) {
		if (err && err.options && err.options.issues) err.options.remedy = remedy;
		throw err;
	}
	const object = body[objectKey];
	/** @type {import('../problems').Issue[]} */
	const issues = [];
	/** @type {Record<string, unknown>} */
	const changes = {};
	body.updateMask.forEach((/** @type {unknown} */ mask, /** @type {number} */ index) => {
		if (typeof mask !== 'string' || !allowed.includes(mask)) {
			issues.push(
				issue('body', `updateMask[${index}]`, `'${String(mask)}' cannot be updated`, mask),
			);
			return;
		}
		const value = object[mask];
		if (value === undefined) {
			issues.push(
				issue(
					'body',
					`${objectKey}.${mask}`,
					`updateMask names ${mask}, but ${objectKey}.${mask} is missing`,
					undefined,
					'Missing required field',
				),
			);
			return;
		}
		const found = validate(value, fields[mask], { name: `${objectKey}.${mask}` });
		const secret = (options.secretFields ?? []).includes(mask);
		issues.push(...found.map((i) => (secret ? { ...i, value: undefined } : i)));
		if (!found.length) changes[mask] = value;
	});
	if (issues.length)
		throw invalid(
			issues.map((i) => JSON.parse(JSON.stringify(i))),
			{ status: options.status, remedy },
		);
	return changes;
}

module.exports = { maskedChanges };
