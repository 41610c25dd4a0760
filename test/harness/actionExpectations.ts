/**
 * What each action-node example of examples/ must output in a real n8n, shared by the e2e suites
 * (single process: test/e2e/actionNode.test.ts; queue mode: test/e2e-queue/actionNode.test.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { SEED } from './actionEngine';
import { readExample } from './e2eContext';

export type Item = Record<string, any>;
export const expectations: Record<string, (items: Item[]) => void> = {
	'api-key-delete': (items) =>
		expect(items).toEqual([{ deleted: true, project: SEED.projectName }]),
	'claimed-domain-claim': (items) =>
		expect(items).toEqual([
			{ claimed: true, domain: 'jane@acme.example', parentType: 'org', parentId: SEED.orgId },
		]),
	'connection-generate': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				provider: 'hubspot',
				authScheme: 'oauth2/authorizationCode',
				status: 'created',
			}),
		]);
		expect(JSON.stringify(items)).not.toContain('imported-refresh-token');
	},
	'custom-field-upsert': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				success: true,
				objectName: 'contacts',
				fieldName: 'loyalty_tier',
				action: 'create',
			}),
		]),
	'destination-get': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.destinationId,
				name: SEED.destinationName,
				type: 'webhook',
			}),
		]);
		expect(items[0].secrets).toBeUndefined();
	},
	'destination-rotate-secret': (items) => {
		expect(items).toEqual([expect.objectContaining({ id: SEED.destinationId })]);
		expect(items[0].secrets).toBeUndefined();
	},
	'installation-unpause-reads': (items) =>
		expect(items).toEqual([
			{ unpaused: true, installationId: SEED.installationId, objects: ['contacts'] },
		]),
	'integration-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				created: true,
				name: 'salesforce-accounts',
				id: expect.any(String),
			}),
		]),
	'integration-get-many': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.integrationId, name: SEED.integrationName }),
		]),
	'invite-get': (items) =>
		expect(items).toEqual([expect.objectContaining({ id: SEED.inviteId, status: 'pending' })]),
	'invite-revoke': (items) =>
		expect(items).toEqual([{ revoked: true, orgId: SEED.orgId, inviteId: SEED.inviteId }]),
	'jwt-key-update': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.jwtKeyId, label: 'frontend-signing-2026', active: true }),
		]),
	'notification-event-topic-route-delete': (items) =>
		expect(items).toEqual([{ deleted: true, routeId: SEED.eventTopicRouteId }]),
	'operation-get-logs': (items) => {
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) expect(['WARNING', 'ERROR']).toContain(item.severity);
	},
	'organization-update': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.orgId, label: 'Demo Org (renamed)' }),
		]),
	'project-get-many': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.projectId, name: SEED.projectName }),
		]),
	'revision-get-hydrated': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.revisionId,
				content: expect.objectContaining({ read: expect.any(Object) }),
			}),
		]),
	'topic-delete': (items) =>
		expect(items).toEqual([{ deleted: true, topicId: SEED.deletableTopicId }]),
	'topic-destination-route-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				topicId: SEED.deletableTopicId,
				destinationId: SEED.destinationId,
			}),
		]),
};

/** The examples (file names without .json) that use the action node. */
export const actionExamples = fs
	.readdirSync(path.join(__dirname, '../../examples'))
	.filter((file) =>
		readExample(file).nodes.some((n: { type: string }) => n.type.endsWith('.integrationPlatform')),
	)
	.map((file) => file.replace(/\.json$/, ''));
