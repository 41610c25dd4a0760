// @ts-check
'use strict';
/**
 * The real n8n of the e2e suites, `npm start` and the benchmarks (docs/testing.md, "The real n8n
 * runtime"), one concern a module:
 *
 *   launch.js        starting one n8n process: environment, free ports, readiness
 *   bootstrap.js     pack and install this package, the owner and API key, keyed imports
 *   single.js        the single-process n8n (e2e project, npm start, benchmarks)
 *   queueServers.js  Redis and PostgreSQL for queue mode
 *   queueCluster.js  n8n in queue mode: main, workers, a webhook process
 *   restClient.js    the REST client tests use against a running n8n
 */
const { freePort } = require('./launch');
const {
	OWNER,
	PACKAGE_NAME,
	importMissing,
	installPackage,
	packPackage,
	readExamples,
} = require('./bootstrap');
const { startN8n } = require('./single');
const { queuePrerequisites, redisVersion } = require('./queueServers');
const { startN8nCluster } = require('./queueCluster');
const { createClient, describeExecution } = require('./restClient');

module.exports = {
	startN8n,
	startN8nCluster,
	redisVersion,
	queuePrerequisites,
	createClient,
	packPackage,
	installPackage,
	readExamples,
	importMissing,
	freePort,
	describeExecution,
	PACKAGE_NAME,
	OWNER,
};
