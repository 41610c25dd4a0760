// @ts-check
'use strict';

/**
 * Topics (docs/api-notes.md, "deleteTopic", "Topics and routes"): named notification channels.
 * Topic: id, name (≤64; letters, digits, dashes), projectId, createTime, updateTime?.
 * A duplicate name is a 409.
 */

const { ok, created, noContent, requireBody, findInProject } = require('./common');
const { problem } = require('../problems');
const { newId } = require('../state');
const { nowIso } = require('../time');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 */

/** @type {Schema} */
const TOPIC_BODY = {
	type: 'object',
	required: ['name'],
	properties: {
		name: {
			type: 'string',
			minLength: 1,
			maxLength: 64,
			pattern: /^[A-Za-z0-9-]+$/,
			patternText: 'only letters, digits and dashes',
		},
	},
};

/** @param {Ctx} ctx @param {string} name @param {string} [exceptId] */
function assertNameFree(ctx, name, exceptId) {
	const taken = [...ctx.state.topics.values()].some(
		(t) => t.projectId === ctx.project.id && t.name === name && t.id !== exceptId,
	);
	if (taken) throw problem(409, `A topic named '${name}' already exists in this project`);
}

/** @param {Ctx} ctx */
function createTopic(ctx) {
	const { name } = requireBody(ctx, TOPIC_BODY);
	assertNameFree(ctx, name);
	const topic = { id: newId(), name, projectId: ctx.project.id, createTime: nowIso() };
	ctx.state.topics.set(topic.id, topic);
	return created(topic);
}

/** @param {Ctx} ctx */
function listTopics(ctx) {
	return ok([...ctx.state.topics.values()].filter((t) => t.projectId === ctx.project.id));
}

/** @param {Ctx} ctx */
function updateTopic(ctx) {
	const topic = findInProject(ctx.state.topics, ctx, 'topicId', 'Topic not found');
	const { name } = requireBody(ctx, TOPIC_BODY);
	assertNameFree(ctx, name, topic.id);
	topic.name = name;
	topic.updateTime = nowIso();
	return ok(topic);
}

/**
 * Seed op 10: 204; 404 "Topic not found". The real API does not say what happens to the
 * topic's routes; the simulator deletes them with the topic, so no route points at nothing.
 * @param {Ctx} ctx
 */
function deleteTopic(ctx) {
	const topic = findInProject(ctx.state.topics, ctx, 'topicId', 'Topic not found');
	ctx.state.topics.delete(topic.id);
	for (const routes of [ctx.state.topicDestinationRoutes, ctx.state.eventTopicRoutes]) {
		for (const [id, route] of routes) if (route.topicId === topic.id) routes.delete(id);
	}
	return noContent();
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'createTopic',
		method: 'POST',
		path: '/v1/projects/{projectIdOrName}/topics',
		handler: createTopic,
	},
	{
		id: 'listTopics',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/topics',
		handler: listTopics,
	},
	{
		id: 'updateTopic',
		method: 'PATCH',
		path: '/v1/projects/{projectIdOrName}/topics/{topicId}',
		handler: updateTopic,
	},
	{
		id: 'deleteTopic',
		method: 'DELETE',
		path: '/v1/projects/{projectIdOrName}/topics/{topicId}',
		seedOp: 10,
		handler: deleteTopic,
	},
];

module.exports = { routes };
