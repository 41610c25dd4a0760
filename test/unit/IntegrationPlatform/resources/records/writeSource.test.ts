/**
 * Records From in the editor: the node's AI tool variant shows a notice on Each Input Item, the
 * form a tool cannot use (records/writeSource.ts; the run refuses it, records/writeInput.ts).
 */
import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../../../nodes/IntegrationPlatform/IntegrationPlatform.node';

const { description } = new IntegrationPlatform();
const notice = description.properties.find(
	(property: INodeProperties) => property.name === 'toolRecordNotice',
);

function shown(typeName: string, typeVersion: number, recordSource?: string): boolean {
	const parameters = {
		resource: 'records',
		operation: 'write',
		...(recordSource ? { recordSource } : {}),
	};
	const node = { typeVersion, parameters } as unknown as INode;
	return NodeHelpers.displayParameter(parameters, notice!, node, {
		...description,
		name: typeName,
	});
}

test('the tool variant shows the notice on Each Input Item (version 1 saves it as the default)', () => {
	expect(notice).toEqual(expect.objectContaining({ type: 'notice' }));
	expect(notice!.displayName).toContain("$fromAI('record'");
	expect(shown('integrationPlatformTool', 1, 'input')).toBe(true);
	expect(shown('integrationPlatformTool', 2, 'input')).toBe(true);
});

test('no notice in a workflow, nor on the forms a tool can use', () => {
	expect(shown('integrationPlatform', 1, 'input')).toBe(false);
	expect(shown('integrationPlatformTool', 2, 'json')).toBe(false);
	expect(shown('integrationPlatformTool', 2, 'mapper')).toBe(false);
});
