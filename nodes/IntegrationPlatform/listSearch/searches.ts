/**
 * Every list method of the action node (list searches, load options), as the node registers
 * them: each answers with a list or with the reason it has none, never with an error n8n would
 * answer with HTTP 500 (`withReason`, nodes/common/locator.ts).
 */
import { withReason } from '../../common/locator';
import * as apiKeys from './apiKeys';
import * as catalog from './catalog';
import * as groups from './groups';
import * as objects from './objects';
import * as operations from './operations';
import * as routes from './routes';
import { getSearchFields as searchFields } from './searchFields';

// The shared lists answer with reasons themselves (nodes/common/).
export { searchProjects } from '../../common/project';
export { searchInstallations, searchIntegrations } from '../../common/installation';
export const searchConnections = withReason(groups.searchConnections);
export const searchGroups = withReason(groups.searchGroups);
export const searchGroupRefs = withReason(groups.searchGroupRefs);
export const searchConsumers = withReason(groups.searchConsumers);
export const searchDestinations = withReason(routes.searchDestinations);
export const searchDestinationIds = withReason(routes.searchDestinationIds);
export const searchTopics = withReason(routes.searchTopics);
export const searchEventTopicRoutes = withReason(routes.searchEventTopicRoutes);
export const searchTopicDestinationRoutes = withReason(routes.searchTopicDestinationRoutes);
export const searchObjects = withReason(objects.searchObjects);
export const searchMetadataObjects = withReason(objects.searchMetadataObjects);
export const searchOperations = withReason(operations.searchOperations);
export const searchApiKeys = withReason(apiKeys.searchApiKeys);
export const searchJwtKeys = withReason(catalog.searchJwtKeys);
export const searchOrganizations = withReason(catalog.searchOrganizations);
export const searchProviders = withReason(catalog.searchProviders);
export const searchProviderApps = withReason(catalog.searchProviderApps);
export const searchInvites = withReason(catalog.searchInvites);
export const getProviders = withReason(catalog.getProviders);
export const getSearchFields = withReason(searchFields);
