// @ts-check
'use strict';

/**
 * JWT keys (docs/api-notes.md, "updateJWTKey", "Enumerations", "The wider API").
 * JWTKey: id, projectId, label, algorithm ('RSA'), publicKeyPem, active, createTime,
 * updateTime (all required).
 *
 * Errors of these operations differ from the rest of the API (docs/api-notes.md, "Problem documents"): content type
 * `application/json` (route flag jsonProblems) and `validationIssues: [{field, value,
 * detail, remedy}]` instead of `issues`:
 *   400 "Invalid update mask"        empty/missing mask or an entry that is not allowed
 *   422 "value not found for mask"   a mask entry without a value in `jwtKey`
 *   404                              unknown key
 *
 * label vs name: the schema enum says `label`, while the operation's description, examples
 * and remedy text say `name`, and the real server's behaviour is unknown (docs/api-notes.md,
 * "updateJWTKey"). The simulator accepts both, in the mask and in `jwtKey`, as aliases for the
 * label, so a client sending either works; a test can still see in the journal which
 * spelling a client sent.
 */

const { createPublicKey } = require('node:crypto');

const { ok, created, noContent } = require('./common');
const { newId } = require('../state');
const { problem } = require('../problems');
const { queryBool } = require('../validate');
const { invalid } = require('../problems');
const { nowIso } = require('../time');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../problems').ValidationIssue} ValidationIssue
 */

const REMEDY = "Allowed masks: 'active' and 'label' ('name' is accepted as an alias of 'label').";
const ALLOWED_MASKS = ['active', 'label', 'name'];

/** @param {string} detail @param {ValidationIssue[]} validationIssues @param {number} [status] */
function jwtProblem(detail, validationIssues, status = 400) {
	return problem(status, detail, { validationIssues, remedy: status === 400 ? REMEDY : undefined });
}

/** @param {Ctx} ctx */
function listJWTKeys(ctx) {
	/** @type {import('../problems').Issue[]} */
	const issues = [];
	const activeOnly = queryBool(ctx.query, 'active', false, issues);
	if (issues.length) throw invalid(issues);
	return ok(
		[...ctx.state.jwtKeys.values()].filter(
			(k) => k.projectId === ctx.project.id && (!activeOnly || k.active),
		),
	);
}

/**
 * 201 `{ kid }` (JWTKeyResponse). The request enum says RS256, the API's error example asks for
 * "RSA" (docs/api-notes.md, "JWT keys"): both are accepted, and the key is stored as 'RSA'. The
 * PEM must be an RSA public key. Errors: 400 with validationIssues, as application/json.
 * @param {Ctx} ctx
 */
function createJWTKey(ctx) {
	const body = ctx.body;
	if (!body || typeof body !== 'object' || Array.isArray(body)) {
		throw problem(400, 'Invalid request body', {
			validationIssues: [
				{
					field: 'body',
					detail: 'The request body must be a JSON object with label, algorithm and publicKeyPem',
				},
			],
		});
	}
	/** @type {ValidationIssue[]} */
	const issues = [];
	const { label, algorithm, publicKeyPem } = body;
	if (typeof label !== 'string' || label.trim() === '' || label.length > 255) {
		issues.push({
			field: 'label',
			value: typeof label === 'string' ? label.slice(0, 40) : label,
			detail: 'label must be a string of 1 to 255 characters',
		});
	}
	if (algorithm !== 'RS256' && algorithm !== 'RSA') {
		issues.push({
			field: 'algorithm',
			value: algorithm,
			detail: 'only RSA algorithm is supported',
			remedy: "use 'RS256' as the algorithm",
		});
	}
	if (typeof publicKeyPem !== 'string' || !isRsaPublicKey(publicKeyPem)) {
		issues.push({
			field: 'publicKeyPem',
			detail: 'invalid RSA public key in PEM format',
			remedy: 'provide a valid RSA public key in PEM format',
		});
	}
	if (issues.length)
		throw problem(400, issues.length === 1 ? issues[0].detail : 'invalid request', {
			validationIssues: issues,
		});
	const time = nowIso();
	const key = {
		id: newId(),
		projectId: ctx.project.id,
		label,
		algorithm: 'RSA',
		publicKeyPem,
		active: true,
		createTime: time,
		updateTime: time,
	};
	ctx.state.jwtKeys.set(key.id, key);
	return created({ kid: key.id });
}

/** @param {string} pem */
function isRsaPublicKey(pem) {
	if (!/-----BEGIN (RSA )?PUBLIC KEY-----/.test(pem)) return false;
	try {
		return createPublicKey(pem).asymmetricKeyType === 'rsa';
	} catch {
		return false;
	}
}

/** 204; 404 "JWT key not found". @param {Ctx} ctx */
function deleteJWTKey(ctx) {
	const key = findJwtKey(ctx);
	ctx.state.jwtKeys.delete(key.id);
	return noContent();
}

/** @param {Ctx} ctx */
function findJwtKey(ctx) {
	const key = ctx.state.jwtKeys.get(ctx.params.keyId);
	if (!key || key.projectId !== ctx.project.id) {
		throw problem(404, 'JWT key not found', {
			remedy: 'check the key ID and project ID are both correct, and try again',
		});
	}
	return key;
}

/** @param {Ctx} ctx */
function getJWTKey(ctx) {
	return ok(findJwtKey(ctx));
}

/**
 * Seed op 12: 200 JWTKey.
 * @param {Ctx} ctx
 */
function updateJWTKey(ctx) {
	const key = ctx.state.jwtKeys.get(ctx.params.keyId);
	if (!key || key.projectId !== ctx.project.id) {
		throw jwtProblem(
			'JWT key not found',
			[
				{
					field: 'keyId',
					value: ctx.params.keyId,
					detail: 'No JWT key with this id in the project',
				},
			],
			404,
		);
	}
	const body = ctx.body;
	if (!body || typeof body !== 'object' || Array.isArray(body)) {
		throw jwtProblem('Invalid request body', [
			{
				field: 'body',
				value: body,
				detail: 'The request body must be a JSON object with updateMask and jwtKey',
			},
		]);
	}
	const mask = body.updateMask;
	if (!Array.isArray(mask) || mask.length === 0) {
		throw jwtProblem('Invalid update mask', [
			{
				field: 'updateMask',
				value: mask,
				detail: 'updateMask must list at least one field',
				remedy: REMEDY,
			},
		]);
	}
	/** @type {ValidationIssue[]} */
	const maskIssues = [];
	mask.forEach((entry, index) => {
		if (!ALLOWED_MASKS.includes(entry))
			maskIssues.push({
				field: `updateMask[${index}]`,
				value: entry,
				detail: `'${entry}' cannot be updated`,
				remedy: REMEDY,
			});
	});
	if (maskIssues.length) throw jwtProblem('Invalid update mask', maskIssues);
	const patch = body.jwtKey;
	if (!patch || typeof patch !== 'object' || Array.isArray(patch)) {
		throw jwtProblem('Invalid request body', [
			{ field: 'jwtKey', value: patch, detail: 'jwtKey must be an object holding the new values' },
		]);
	}

	/** @type {ValidationIssue[]} */
	const missing = [];
	/** @type {ValidationIssue[]} */
	const wrong = [];
	/** @type {{ active?: boolean, label?: string }} */
	const changes = {};
	for (const entry of new Set(mask)) {
		if (entry === 'active') {
			if (patch.active === undefined)
				missing.push({
					field: 'jwtKey.active',
					detail: "value not found for mask 'active'",
					remedy: 'Set jwtKey.active.',
				});
			else if (typeof patch.active !== 'boolean')
				wrong.push({
					field: 'jwtKey.active',
					value: patch.active,
					detail: 'jwtKey.active must be a boolean',
				});
			else changes.active = patch.active;
		} else {
			const value =
				entry === 'label'
					? patch.label !== undefined
						? patch.label
						: patch.name
					: patch.name !== undefined
						? patch.name
						: patch.label;
			const field = `jwtKey.${entry}`;
			if (value === undefined)
				missing.push({
					field,
					detail: `value not found for mask '${entry}'`,
					remedy: `Set jwtKey.${entry}.`,
				});
			else if (typeof value !== 'string' || value.trim() === '')
				wrong.push({ field, value, detail: `${field} must be a non-empty string` });
			else changes.label = value;
		}
	}
	if (wrong.length) throw jwtProblem('Invalid request body', wrong);
	if (missing.length) throw jwtProblem('value not found for mask', missing, 422);

	Object.assign(key, changes, { updateTime: nowIso() });
	return ok(key);
}

const BASE = '/v1/projects/{projectIdOrName}/jwt-keys';

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'listJWTKeys', method: 'GET', path: BASE, jsonProblems: true, handler: listJWTKeys },
	{ id: 'createJWTKey', method: 'POST', path: BASE, jsonProblems: true, handler: createJWTKey },
	{
		id: 'deleteJWTKey',
		method: 'DELETE',
		path: `${BASE}/{keyId}`,
		jsonProblems: true,
		handler: deleteJWTKey,
	},
	{
		id: 'getJWTKey',
		method: 'GET',
		path: `${BASE}/{keyId}`,
		jsonProblems: true,
		handler: getJWTKey,
	},
	{
		id: 'updateJWTKey',
		method: 'PATCH',
		path: `${BASE}/{keyId}`,
		seedOp: 12,
		jsonProblems: true,
		handler: updateJWTKey,
	},
];

module.exports = { routes };
