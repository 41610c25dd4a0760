/**
 * Record → Write's mapper in the editor (records/writeMapper.ts). n8n's editor keeps one resource
 * mapper for the parameter `columns` while the node's panel is open, and empties its values when
 * the text of the parameters in `loadOptionsDependsOn` changes (docs/n8n-notes.md, "The resource
 * mapper keeps values only while its dependencies stay"). Version 3 makes Write Type no such
 * parameter and moves the record ID out of the mapper; these tests read what n8n shows in each
 * write type, the way its editor decides it (NodeHelpers).
 */
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../../../nodes/IntegrationPlatform/IntegrationPlatform.node';

const { description } = new IntegrationPlatform();

function node(typeVersion: number, writeType: string, more: INodeParameters = {}): INode {
	const parameters = {
		resource: 'records',
		operation: 'write',
		recordSource: 'mapper',
		writeType,
		...more,
	};
	return { typeVersion, parameters } as unknown as INode;
}

/** The properties of this name the editor shows for the node. */
function shown(name: string, typeVersion: number, writeType: string): INodeProperties[] {
	const n = node(typeVersion, writeType);
	return description.properties.filter(
		(p) => p.name === name && NodeHelpers.displayParameter(n.parameters, p, n, description),
	);
}

/** What n8n's editor compares to decide whether to empty the mapper: the dependencies' names. */
const dependencies = (property: INodeProperties) =>
	(property.typeOptions?.loadOptionsDependsOn ?? []) as string[];

describe('version 3', () => {
	test('Create and Update show one mapper each, depending on the same parameters, none of them Write Type', () => {
		const create = shown('columns', 3, 'create');
		const update = shown('columns', 3, 'update');
		expect(create).toHaveLength(1);
		expect(update).toHaveLength(1);
		expect(dependencies(update[0])).toEqual(dependencies(create[0]));
		expect(dependencies(create[0])).not.toContain('writeType');
		expect(dependencies(create[0])).toEqual([
			'project.value',
			'integration.value',
			'groupRef.value',
			'object.value',
		]);
		// The same fields, so the values mapped for one type stay valid for the other.
		expect(create[0].typeOptions?.resourceMapper?.resourceMapperMethod).toBe('getRecordFields');
		expect(update[0].typeOptions?.resourceMapper?.resourceMapperMethod).toBe('getRecordFields');
	});

	test("Create's mapper checks the required fields, Update's none and matches on nothing (the ID is outside)", () => {
		expect(shown('columns', 3, 'create')[0].typeOptions?.resourceMapper?.mode).toBe('add');
		// n8n checks required fields only in 'add', and shows a field to match on in 'update'.
		expect(shown('columns', 3, 'update')[0].typeOptions?.resourceMapper?.mode).toBe('map');
	});

	test('Record ID: one parameter that Update and Delete share, which Create does not show', () => {
		const update = shown('recordId', 3, 'update');
		const del = shown('recordId', 3, 'delete');
		expect(update).toHaveLength(1);
		expect(del).toEqual(update);
		expect(update[0]).toMatchObject({ displayName: 'Record ID', type: 'string', required: true });
		expect(shown('recordId', 3, 'create')).toEqual([]);
	});

	test('Delete shows no fields: it sends only the record ID', () => {
		expect(shown('columns', 3, 'delete')).toEqual([]);
	});

	test("n8n's parameter update keeps the Record ID from Update to Delete, and the fields from Create to Update", () => {
		// What the editor does with a node's parameters when one changes (NodeHelpers.getNodeParameters).
		const columns = {
			mappingMode: 'defineBelow',
			value: { email: 'ada@example.com' },
			matchingColumns: [],
			schema: [{ id: 'email', displayName: 'Email (email)', type: 'string', required: true }],
		};
		const keep = (typeVersion: number, parameters: INodeParameters) =>
			NodeHelpers.getNodeParameters(
				description.properties,
				parameters,
				false,
				false,
				node(typeVersion, String(parameters.writeType)),
				description,
			);
		const toDelete = keep(3, { ...node(3, 'delete').parameters, recordId: '={{ $json.id }}' });
		expect(toDelete?.recordId).toBe('={{ $json.id }}');
		const toUpdate = keep(3, { ...node(3, 'update').parameters, columns });
		expect(toUpdate?.columns).toEqual(columns);
	});
});

describe('version 2 keeps its layout, which its saved workflows hold', () => {
	test.each(['create', 'update', 'delete'])(
		'%s: one mapper, reloaded with Write Type; the record ID inside it',
		(writeType) => {
			const columns = shown('columns', 2, writeType);
			expect(columns).toHaveLength(1);
			expect(dependencies(columns[0])).toContain('writeType');
			expect(columns[0].typeOptions?.resourceMapper?.mode).toBe(
				writeType === 'create' ? 'add' : 'update',
			);
			expect(shown('recordId', 2, writeType)).toEqual([]);
			expect(shown('updateFieldsNotice', 2, writeType)).toEqual([]);
		},
	);
});
