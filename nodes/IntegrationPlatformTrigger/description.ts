import type {
	IDisplayOptions,
	INodeProperties,
	INodePropertyMode,
	INodePropertyOptions,
} from 'n8n-workflow';

import { typedMode } from '../common/locator';
import { projectLocator } from '../common/project';
import { authenticationParameter } from '../common/api';
import { DEFAULT_DOWNLOAD_HOSTS } from './download';
import { NOTIFICATION_TYPES, SUBSCRIBE_EVENT_TYPES } from './events';
import { DEFAULT_TOLERANCE_SECONDS, MAX_TOLERANCE_SECONDS, MIN_TOLERANCE_SECONDS } from './svix';

/** The shared credential choice plus "none": a signing-secret credential only, no registration. */
const authentication: INodeProperties = {
	...authenticationParameter,
	options: [
		...(authenticationParameter.options ?? []),
		{
			name: 'None (Signing Secret Only)',
			value: 'none',
			description:
				'No API credential: the trigger cannot register itself; point a destination at it and put its signing secret in a signing-secret credential',
		},
	],
};

const withCredential = { hide: { authentication: ['none'] } };

/** Fields of version 2 only (typed destination and object names), and of version 3 on (lists). */
const version2 = { '@version': [2] };
const fromVersion3 = { '@version': [{ _cnd: { gte: 3 } }] };
/** "If the Destination Exists" stops by default up to version 3; version 4 follows the manifests. */
const upToVersion3 = { '@version': [{ _cnd: { lte: 3 } }] };
const fromVersion4 = { '@version': [{ _cnd: { gte: 4 } }] };

/** Where the editor shows the webhook URLs and the credential, by the labels it gives them. */
const PRODUCTION_URL = 'the Production URL (under Webhook URLs at the top of this panel)';

const notificationTypeOptions = [...NOTIFICATION_TYPES]
	.sort((a, b) => a.localeCompare(b))
	.map((type) => ({ name: type, value: type }));

/** `associationUpdate` → "Association Update", sorted by name as n8n's lint wants options. */
const subscribeEventTypeOptions = SUBSCRIBE_EVENT_TYPES.map((type) => ({
	name: type
		.replace(/^./, (c) => c.toUpperCase())
		.replace(/([A-Z])/g, ' $1')
		.trim(),
	value: type,
})).sort((a, b) => a.name.localeCompare(b.name));

/** The typed mode of Destination, checked in the editor as registration checks it (NAME_PATTERN). */
const destinationByName: INodePropertyMode = {
	...typedMode('By Name', 'name', 'n8n-events'),
	validation: [
		{
			type: 'regex',
			properties: {
				// Empty is allowed: the name is then derived from the webhook ID.
				regex: '^[A-Za-z0-9-]{0,64}$',
				errorMessage:
					'Use letters, digits and dashes only, at most 64 (59 leave room for the "-test" added while testing)',
			},
		},
	],
};

/** "If the Destination Exists" of some versions, with their default and choices. */
function onExistingDestination(
	versions: IDisplayOptions['show'],
	fallback: string,
	options: INodePropertyOptions[],
): INodeProperties {
	return {
		displayName: 'If the Destination Exists',
		name: 'onExistingDestination',
		type: 'options',
		default: fallback,
		description: 'What to do when a destination of that name already sends somewhere else',
		displayOptions: { ...withCredential, show: { ...versions, registerDestination: [true] } },
		options,
	};
}

const takeOverOption: INodePropertyOptions = {
	name: 'Point It at This Workflow',
	value: 'takeOver',
	description: 'Change its URL to this trigger; the previous URL is put back on deactivation',
};

const failOption: INodePropertyOptions = {
	name: 'Stop With an Error',
	value: 'fail',
	description: 'Leave it alone; activation fails and says so',
};

export const triggerProperties: INodeProperties[] = [
	authentication,
	{
		displayName: `Without an API credential the trigger neither registers itself nor fetches the signing secret: create a webhook destination that sends to ${PRODUCTION_URL} and put its signing secret in an Integration Platform Signing Secret API credential, chosen under Credential`,
		name: 'noCredentialNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { authentication: ['none'] } },
	},
	{
		...projectLocator,
		description: 'The project whose destination delivers to this trigger',
		displayOptions: withCredential,
	},
	{
		displayName: 'Destination Name',
		name: 'destinationName',
		type: 'string',
		default: '',
		placeholder: 'e.g. n8n-events',
		description:
			'Name of the webhook destination that delivers to this trigger. Read, subscribe and schema-watch messages go to the destination the integration names (destination: … in its manifest), so use the same name there. Empty: n8n- followed by the first characters of this trigger\'s webhook ID. While listening for a test event, "-test" is appended.',
		displayOptions: { ...withCredential, show: version2 },
	},
	{
		displayName: 'Destination',
		name: 'destinationName',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description:
			'The webhook destination that delivers to this trigger, from the project\'s list or by name (a new name is created on activation). Read, subscribe and schema-watch messages go to the destination the integration names (destination: … in its manifest), so use the same name there: the list puts those first and says what each receives. Empty: n8n- followed by the first characters of this trigger\'s webhook ID. While listening for a test event, "-test" is appended.',
		displayOptions: { ...withCredential, show: fromVersion3 },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a destination…',
				typeOptions: { searchListMethod: 'searchWebhookDestinations', searchable: true },
			},
			destinationByName,
		],
	},
	{
		displayName: 'Register Automatically',
		name: 'registerDestination',
		type: 'boolean',
		default: true,
		description: `Whether to create the destination (and, for notifications, a topic and its routes) on activation and remove them on deactivation. Off: the destination must already exist and send to ${PRODUCTION_URL}.`,
		displayOptions: withCredential,
	},
	// Versions 2 and 3: a destination that sends elsewhere stops the activation unless told.
	onExistingDestination(upToVersion3, 'fail', [takeOverOption, failOption]),
	// Version 4 on: the destination a manifest delivers to (where read results go) is pointed here
	// by default; one no manifest names is still left alone.
	onExistingDestination(fromVersion4, 'takeOverIfManifest', [
		takeOverOption,
		{
			name: 'Point It at This Workflow if a Manifest Delivers to It',
			value: 'takeOverIfManifest',
			description:
				"If an integration's manifest in the project names it (read, subscribe or schema-watch deliveries), change its URL to this trigger and put the previous URL back on deactivation; otherwise leave it alone and stop with an error",
		},
		failOption,
	]),
	{
		displayName:
			'The service delivers only to https URLs: n8n must be reachable over https (set WEBHOOK_URL when it runs behind a proxy)',
		name: 'httpsNotice',
		type: 'notice',
		default: '',
		displayOptions: { ...withCredential, show: { registerDestination: [true] } },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		default: ['notification', 'read', 'schema.watch', 'subscribe'],
		description:
			'Which messages start the workflow; others are acknowledged (200) without starting it',
		options: [
			{
				name: 'Notification',
				value: 'notification',
				description: 'Installation, connection, read, write and destination notifications',
			},
			{
				name: 'Read',
				value: 'read',
				description: 'Records of a scheduled, backfill or triggered read',
			},
			{
				name: 'Schema Watch',
				value: 'schema.watch',
				description: "Fields created, deleted or changed in the customer's schema",
			},
			{
				name: 'Subscribe',
				value: 'subscribe',
				description: 'Create, update, delete and association events from the provider',
			},
		],
	},
	{
		displayName: 'Subscribe Event Types',
		name: 'subscribeEventTypes',
		type: 'multiOptions',
		default: [],
		description: 'Which subscribe events to keep. None selected: all of them.',
		displayOptions: { show: { events: ['subscribe'] } },
		options: subscribeEventTypeOptions,
	},
	{
		displayName: 'Notification Types',
		name: 'notificationTypes',
		type: 'multiOptions',
		default: [],
		description:
			'Which notifications to receive. None selected: all 15. With automatic registration, the trigger routes exactly these to its destination.',
		displayOptions: { show: { events: ['notification'] } },
		options: notificationTypeOptions,
	},
	{
		displayName: 'Object Names',
		name: 'objectNames',
		type: 'string',
		default: '',
		placeholder: 'e.g. contacts, companies',
		description:
			'Comma-separated object names to keep (case-insensitive, mapped or provider name). Empty: all objects. Notifications that name no object always pass.',
		displayOptions: { show: version2 },
	},
	{
		// Version 3 without an API credential: no list can be loaded, so names are typed.
		displayName: 'Object Names',
		name: 'objectNames',
		type: 'string',
		default: '',
		placeholder: 'e.g. contacts, companies',
		description:
			'Comma-separated object names to keep (case-insensitive, mapped or provider name). Empty: all objects. Notifications that name no object always pass.',
		displayOptions: { show: { ...fromVersion3, authentication: ['none'] } },
	},
	{
		// n8n's rules for a list from a method (its verification scan does not take exceptions):
		// "Names or IDs" in the label, the expression hint at the end of the description.
		displayName: 'Object Names or IDs',
		name: 'objectNames',
		type: 'multiOptions',
		default: [],
		typeOptions: { loadOptionsMethod: 'getObjectNames', loadOptionsDependsOn: ['project.value'] },
		description:
			'Objects to keep (case-insensitive, mapped or provider name), from the ones the Project\'s integrations read or subscribe to (the list loads once a Project is chosen); none selected: all objects. Notifications that name no object always pass. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { ...withCredential, show: fromVersion3 },
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'message',
		options: [
			{
				name: 'One Item per Message',
				value: 'message',
				description: 'The message as delivered, its records in result',
			},
			{
				name: 'One Item per Record',
				value: 'record',
				description:
					'Each record (or schema change) with its message in message; notifications stay one item',
			},
		],
	},
	{
		displayName: 'Verify Signature',
		name: 'verifySignature',
		type: 'boolean',
		default: true,
		description:
			"Whether to refuse (401) deliveries that are not signed with the destination's signing secret",
	},
	{
		displayName:
			'Unsafe: without signature verification anyone who knows this URL can start the workflow with any data. Results sent as a download URL are then not downloaded.',
		name: 'unsafeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { verifySignature: [false] } },
	},
	{
		displayName: 'Signing Secret From',
		name: 'signingSecretSource',
		type: 'options',
		default: 'destination',
		displayOptions: { ...withCredential, show: { verifySignature: [true] } },
		options: [
			{
				name: 'The Destination',
				value: 'destination',
				description: 'Fetched with the credential, kept in memory, refreshed after a rotation',
			},
			{
				name: 'A Signing Secret Credential',
				value: 'credential',
				description:
					'Typed into an Integration Platform Signing Secret API credential, which n8n keeps encrypted',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Allow Insecure Downloads (Testing)',
				name: 'allowInsecureDownloads',
				type: 'boolean',
				default: false,
				description:
					'Whether to download results from http URLs as well as https ones, for a local simulator. The service itself sends https links only; hosts must still be allowed.',
			},
			{
				displayName: 'Allowed Download Hosts',
				name: 'downloadHosts',
				type: 'string',
				default: DEFAULT_DOWNLOAD_HOSTS,
				description:
					'Comma-separated hosts the trigger may download results from; *.example.com allows every name under example.com. Default: Google Cloud Storage, where the service keeps its result links.',
			},
			{
				displayName: 'Download URL Results',
				name: 'downloadResults',
				type: 'boolean',
				default: true,
				description:
					'Whether to fetch records the service sends as a download URL (valid 15 minutes) before starting the workflow. Off: the message is passed on with its URL.',
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				default: DEFAULT_TOLERANCE_SECONDS,
				typeOptions: { minValue: MIN_TOLERANCE_SECONDS, maxValue: MAX_TOLERANCE_SECONDS },
				description:
					"How far a message's signed timestamp may be from now, in either direction; older or newer messages are refused. A whole number from 30 to 3600; another value stops the activation.",
			},
		],
	},
];
