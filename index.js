// n8n loads this package through the "n8n" section of package.json, not through this file.
module.exports = {};
