/**
 * The installation list behind the Group pickers (Provider API → Send Request, the log trigger)
 * and the Installation resource's picker, against the simulator: each entry named as the Record
 * operations' Group list names the group, its value the installation's ID.
 */
import { SEED, startSimulator, type Simulator } from '../../harness/actionEngine';
import { searchContext } from '../../harness/listSearch';
import { searchGroups } from '../../../nodes/IntegrationPlatform/listSearch/searches';
import { searchInstallations } from '../../../nodes/common/installation';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const context = () =>
	searchContext(sim, {
		current: { project: SEED.projectId, integration: SEED.integrationId },
	});

describe('searchInstallations: entries by group', () => {
	test("the group's name and ref, as the Group list of Record → Write and Search shows them", async () => {
		const installations = await searchInstallations.call(context());
		const groups = await searchGroups.call(context());
		expect(installations.results.map((r) => r.name)).toEqual(groups.results.map((r) => r.name));
		expect(installations.results).toContainEqual({
			name: `${SEED.groupName} (${SEED.groupRef})`,
			value: SEED.installationId,
		});
	});

	test('a group named by its ref is shown by its ref once, not "ref (ref)"', async () => {
		const installations = sim.state.installations as unknown as Map<
			string,
			{ group: { groupName: string } }
		>;
		installations.get(SEED.installationId)!.group.groupName = SEED.groupRef;
		const { results } = await searchInstallations.call(context());
		expect(results.find((r) => r.value === SEED.installationId)?.name).toBe(SEED.groupRef);
	});
});
