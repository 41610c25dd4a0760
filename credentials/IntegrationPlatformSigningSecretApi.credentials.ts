import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * A webhook destination's signing secret, typed in rather than fetched from the service. A
 * credential, because n8n encrypts credentials at rest; a node parameter would be stored in clear
 * text in the workflow (and in its exports), masked only in the editor.
 *
 * No `authenticate` and no test request: the secret signs nothing the node sends, and there is no
 * endpoint to test it against. The Integration Platform Trigger checks its format instead
 * (credentialTest `signingSecretTest`, no network).
 */
export class IntegrationPlatformSigningSecretApi implements ICredentialType {
	name = 'integrationPlatformSigningSecretApi';

	// n8n's lint wants every credential's display name to end in "API".
	displayName = 'Integration Platform Signing Secret API';

	icon: Icon = {
		light: 'file:../icons/integrationPlatform.svg',
		dark: 'file:../icons/integrationPlatform.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-integration-platform/n8n-nodes-integration-platform#event-trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'whsec_…',
			description:
				"The webhook destination's signing secret (whsec_…), shown in the dashboard under the destination. Several, separated by spaces or commas, while a rotation is under way.",
		},
	];
}
