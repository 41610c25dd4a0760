// @ts-check
'use strict';

/**
 * The two kinds of route of the notification flow (docs/api-notes.md, "Topics and routes"):
 *   event type → (notification-event-topic route) → topic → (topic-destination route) → destination
 *
 * - createTopicDestinationRoute (seed op 15): body {topicId, destinationId}; destinationId
 *   is the destination's id, not its name. Missing or ill-typed fields are a 422
 *   InputValidationProblem; an unknown topic or destination is a 404 ApiProblem
 *   (docs/api-notes.md, "createTopicDestinationRoute").
 * - deleteEventTopicRoute (seed op 18): 204; 404 "Route not found".
 * - A second identical route (same topic and destination, or same event type and topic)
 *   is a 409: undocumented, chosen so that registration code has to look before it creates.
 */

const { ok, created, noContent, requireBody, findInProject } = require('./common');
const { problem, invalid, issue } = require('../problems');
const { queryString } = require('../validate');
const { newId } = require('../state');
const { nowIso } = require('../time');
const { NOTIFICATION_EVENT_TYPES } = require('../catalog');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 */

/** @type {Schema} */
const TOPIC_DESTINATION_ROUTE = {
	type: 'object',
	required: ['topicId', 'destinationId'],
	properties: {
		topicId: { type: 'string', minLength: 1 },
		destinationId: { type: 'string', minLength: 1 },
	},
};

/** @type {Schema} */
const EVENT_TOPIC_ROUTE = {
	type: 'object',
	required: ['eventType', 'topicId'],
	properties: {
		eventType: { type: 'string', enum: NOTIFICATION_EVENT_TYPES },
		topicId: { type: 'string', minLength: 1 },
	},
};

/**
 * @param {Ctx} ctx
 * @param {string} topicId
 */
function requireTopic(ctx, topicId) {
	const topic = ctx.state.topics.get(topicId);
	if (!topic || topic.projectId !== ctx.project.id) throw problem(404, 'Topic not found');
	return topic;
}

/**
 * Seed op 15: 201 TopicDestinationRoute {id, topicId, destinationId, projectId, createTime}.
 * @param {Ctx} ctx
 */
function createTopicDestinationRoute(ctx) {
	if (
		ctx.body !== undefined &&
		(ctx.body === null || typeof ctx.body !== 'object' || Array.isArray(ctx.body))
	) {
		throw problem(400, 'The request body must be a JSON object');
	}
	const body = requireBody(ctx, TOPIC_DESTINATION_ROUTE, 422);
	requireTopic(ctx, body.topicId);
	const destination = ctx.state.destinations.get(body.destinationId);
	if (!destination || destination._projectId !== ctx.project.id) {
		const byName = [...ctx.state.destinations.values()].some(
			(d) => d._projectId === ctx.project.id && d.name === body.destinationId,
		);
		throw problem(
			404,
			'Destination not found',
			byName ? { remedy: "destinationId takes the destination's id, not its name." } : {},
		);
	}
	const duplicate = [...ctx.state.topicDestinationRoutes.values()].some(
		(r) => r.topicId === body.topicId && r.destinationId === body.destinationId,
	);
	if (duplicate) throw problem(409, 'A route from this topic to this destination already exists');
	const route = {
		id: newId(),
		topicId: body.topicId,
		destinationId: body.destinationId,
		projectId: ctx.project.id,
		createTime: nowIso(),
	};
	ctx.state.topicDestinationRoutes.set(route.id, route);
	return created(route);
}

/** @param {Ctx} ctx */
function listTopicDestinationRoutes(ctx) {
	const topicId = queryString(ctx.query, 'topicId');
	const destinationId = queryString(ctx.query, 'destinationId');
	return ok(
		[...ctx.state.topicDestinationRoutes.values()].filter(
			(r) =>
				r.projectId === ctx.project.id &&
				(!topicId || r.topicId === topicId) &&
				(!destinationId || r.destinationId === destinationId),
		),
	);
}

/** @param {Ctx} ctx */
function deleteTopicDestinationRoute(ctx) {
	const route = findInProject(ctx.state.topicDestinationRoutes, ctx, 'routeId', 'Route not found');
	ctx.state.topicDestinationRoutes.delete(route.id);
	return noContent();
}

/** @param {Ctx} ctx */
function createEventTopicRoute(ctx) {
	const body = requireBody(ctx, EVENT_TOPIC_ROUTE);
	requireTopic(ctx, body.topicId);
	const duplicate = [...ctx.state.eventTopicRoutes.values()].some(
		(r) => r.topicId === body.topicId && r.eventType === body.eventType,
	);
	if (duplicate) throw problem(409, `Event type ${body.eventType} is already routed to this topic`);
	const route = {
		id: newId(),
		eventType: body.eventType,
		topicId: body.topicId,
		projectId: ctx.project.id,
		createTime: nowIso(),
	};
	ctx.state.eventTopicRoutes.set(route.id, route);
	return created(route);
}

/** @param {Ctx} ctx */
function listEventTopicRoutes(ctx) {
	const topicId = queryString(ctx.query, 'topicId');
	const eventType = queryString(ctx.query, 'eventType');
	if (eventType && !NOTIFICATION_EVENT_TYPES.includes(eventType)) {
		throw invalid([
			issue(
				'query',
				'eventType',
				`eventType must be one of: ${NOTIFICATION_EVENT_TYPES.join(', ')}`,
				eventType,
			),
		]);
	}
	return ok(
		[...ctx.state.eventTopicRoutes.values()].filter(
			(r) =>
				r.projectId === ctx.project.id &&
				(!topicId || r.topicId === topicId) &&
				(!eventType || r.eventType === eventType),
		),
	);
}

/**
 * Seed op 18: 204; 404 "Route not found".
 * @param {Ctx} ctx
 */
function deleteEventTopicRoute(ctx) {
	const route = findInProject(ctx.state.eventTopicRoutes, ctx, 'routeId', 'Route not found');
	ctx.state.eventTopicRoutes.delete(route.id);
	return noContent();
}

const TDR = '/v1/projects/{projectIdOrName}/topic-destination-routes';
const ETR = '/v1/projects/{projectIdOrName}/notification-event-topic-routes';

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'createTopicDestinationRoute',
		method: 'POST',
		path: TDR,
		seedOp: 15,
		handler: createTopicDestinationRoute,
	},
	{
		id: 'listTopicDestinationRoutes',
		method: 'GET',
		path: TDR,
		handler: listTopicDestinationRoutes,
	},
	{
		id: 'deleteTopicDestinationRoute',
		method: 'DELETE',
		path: `${TDR}/{routeId}`,
		handler: deleteTopicDestinationRoute,
	},
	{ id: 'createEventTopicRoute', method: 'POST', path: ETR, handler: createEventTopicRoute },
	{ id: 'listEventTopicRoutes', method: 'GET', path: ETR, handler: listEventTopicRoutes },
	{
		id: 'deleteEventTopicRoute',
		method: 'DELETE',
		path: `${ETR}/{routeId}`,
		seedOp: 18,
		handler: deleteEventTopicRoute,
	},
];

module.exports = { routes };
