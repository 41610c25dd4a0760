import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { apiResponse } from '../common/api';
import { problemError } from '../common/errors';
import { searchProjects } from '../common/project';
import { handleDelivery, refuse, VerifiedMessageError } from './delivery';
import { triggerProperties } from './description';
import {
	register,
	RegistrationError,
	registrationExists,
	storedRegistrationKey,
	safeUrl,
	unregister,
} from './registration';
import type { Registration, RegistrationApi } from './registration';
import { getObjectNames, searchWebhookDestinations } from './lists';
import { replayMemory } from './replay';
import { destinationSecrets, testSigningSecret } from './secrets';
import {
	authentication,
	desiredRegistration,
	registering,
	optionsOf,
	toleranceOf,
	verifying,
} from './settings';

/**
 * For tests that run several scenarios in one process: forgets fetched secrets and claimed
 * message ids; `replayCapacity` sizes the replay memory anew.
 */
export function resetTriggerMemory(options: { replayCapacity?: number } = {}): void {
	destinationSecrets.clear();
	replayMemory.clear(options.replayCapacity);
}

/** Registration requests: every status comes back; problem documents become readable errors. */
function registrationApi(context: IHookFunctions): RegistrationApi {
	return {
		send: async (method, path, options = {}) =>
			await apiResponse(context, method, path, {
				qs: options.qs,
				body: options.body as IDataObject | undefined,
			}),
		error: (response) =>
			problemError(context.getNode(), response.status, response.body, response.headers ?? {}),
	};
}

/** This node's registrations by webhook URL, in its static data (never a secret: secrets.ts). */
function stored(context: IHookFunctions): Record<string, Registration> {
	const data = context.getWorkflowStaticData('node') as {
		registrations?: Record<string, Registration>;
	};
	data.registrations ??= {};
	return data.registrations;
}

function webhookUrl(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(context.getNode(), 'n8n did not provide a webhook URL');
	return url;
}

/** RegistrationErrors become NodeOperationErrors with their explanation; others pass as is. */
function asNodeError(context: IHookFunctions, error: unknown): Error {
	if (error instanceof RegistrationError) {
		return new NodeOperationError(context.getNode(), error.message, {
			description: error.description,
		});
	}
	return error instanceof Error ? error : new NodeOperationError(context.getNode(), String(error));
}

export class IntegrationPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Integration Platform Trigger',
		name: 'integrationPlatformTrigger',
		icon: {
			light: 'file:../../icons/integrationPlatform.svg',
			dark: 'file:../../icons/integrationPlatform.dark.svg',
		},
		group: ['trigger'],
		// No version 1: for webhook nodes of version 1, n8n evaluates an options.binaryData
		// expression on every request, a few milliseconds each (docs/n8n-notes.md, "Per-item cost
		// of expressions"). Version 3 picks Destination and Object Names from lists; workflows saved
		// with 2 keep their typed fields (description.ts). Version 4 points an existing destination
		// that a manifest delivers to at the workflow by default; 2 and 3 keep stopping.
		version: [2, 3, 4],
		defaultVersion: 4,
		subtitle: '={{ ($parameter["events"] || []).join(", ") }}',
		// n8n's nodes panel shows this trigger and the action node as one entry, with this
		// description (docs/n8n-notes.md, "The nodes panel and the Docs link"): it speaks for both.
		description:
			'Manage projects, integrations, connections and records with the Integration Platform (Ampersand) API, or start a workflow when it delivers a signed read, subscribe, schema-watch or notification message',
		defaults: { name: 'Integration Platform Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// Written out rather than spread from nodeCredentials (nodes/common/api.ts), which the first
		// two entries repeat (a unit test keeps them equal): n8n's lint reads this list literally,
		// and finds the third credential's test (testedBy) only here.
		credentials: [
			{
				name: 'integrationPlatformApi',
				required: true,
				displayOptions: { show: { authentication: ['apiKey'] } },
			},
			{
				name: 'integrationPlatformTokenApi',
				required: true,
				displayOptions: { show: { authentication: ['bearerToken'] } },
			},
			{
				// The signing secret, when typed in rather than fetched: encrypted by n8n, unlike a
				// node parameter, which is stored in clear text with the workflow. Without an API
				// credential, Signing Secret From is hidden, so n8n leaves it out and this shows.
				// `hide` only: n8n's editor puts the credential selector above the last visible
				// parameter a credential's `show` names, which for verifySignature was mid-form.
				name: 'integrationPlatformSigningSecretApi',
				required: true,
				testedBy: 'signingSecretTest',
				displayOptions: {
					hide: { verifySignature: [false], signingSecretSource: ['destination'] },
				},
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchProjects, searchWebhookDestinations },
		loadOptions: { getObjectNames },
		credentialTest: { signingSecretTest: testSigningSecret },
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				// Settings the deliveries read, checked once here: a wrong one stops the activation.
				if (verifying(this)) toleranceOf(optionsOf(this)(), this.getNode());
				if (!registering(this)) return true;
				const url = webhookUrl(this);
				const desired = desiredRegistration(this, url);
				const registrations = stored(this);
				const key = storedRegistrationKey(registrations, url, desired);
				try {
					return await registrationExists(
						registrationApi(this),
						key === undefined ? undefined : registrations[key],
						desired,
					);
				} catch (error) {
					this.logger.warn(
						`Integration Platform Trigger: could not check the registration of ${safeUrl(url)}: ${(error as Error).message}`,
					);
					throw asNodeError(this, error);
				}
			},

			async create(this: IHookFunctions): Promise<boolean> {
				if (!registering(this)) return true;
				const url = webhookUrl(this);
				const registrations = stored(this);
				const desired = desiredRegistration(this, url);
				// The entry for this URL, or this node's entry for the same webhook or destination under
				// an earlier URL (n8n moved, WEBHOOK_URL changed): registration then moves it here.
				const previousKey = storedRegistrationKey(registrations, url, desired);
				try {
					registrations[url] = await register(
						registrationApi(this),
						desired,
						previousKey ? registrations[previousKey] : undefined,
					);
					if (previousKey && previousKey !== url) delete registrations[previousKey];
				} catch (error) {
					this.logger.error(
						`Integration Platform Trigger: registering ${safeUrl(url)} as destination "${desired.destinationName}" failed: ${(error as Error).message}`,
					);
					throw asNodeError(this, error);
				}
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const url = webhookUrl(this);
				const registrations = stored(this);
				// Found from what activation stored, even if WEBHOOK_URL changed since. No destination
				// name here: n8n removes test and production webhooks alike, and the name worked out now
				// could be the other one's.
				const key = storedRegistrationKey(registrations, url);
				const registration = key === undefined ? undefined : registrations[key];
				if (key === undefined || !registration) return true;
				if (authentication(this) === 'none') {
					this.logger.warn(
						`Integration Platform Trigger: destination "${registration.destinationName}" stays on the service: the trigger has no credential to remove it`,
					);
					delete registrations[key];
					return true;
				}
				const result = await unregister(registrationApi(this), registration);
				if (result.remaining) registrations[key] = result.remaining;
				else delete registrations[key];
				if (result.problems.length > 0) {
					const problems = result.problems.join('\n');
					this.logger.error(
						`Integration Platform Trigger: could not remove everything registered for ${safeUrl(url)}:\n${problems}`,
					);
					throw new NodeOperationError(
						this.getNode(),
						'Could not remove the registration from the service',
						{
							description: `Still on the service:\n${problems}`,
						},
					);
				}
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const outcome = await handleDelivery(this).then(
			(response) => ({ response }),
			(error: unknown) => ({ error: error as Error }),
		);
		if ('response' in outcome) return outcome.response;
		// About a verified message: n8n records it as a failed execution, where the user sees it.
		if (outcome.error instanceof VerifiedMessageError) throw outcome.error;
		// Any other throw would make n8n record a failed execution for a request nothing vouched
		// for: answer 500 instead (the service retries) and say why in the log.
		this.logger.error(
			`Integration Platform Trigger: the delivery could not be handled: ${outcome.error?.message}`,
		);
		if (this.getResponseObject().headersSent) return { noWebhookResponse: true };
		return refuse(this, 500, 'Internal Server Error');
	}
}
