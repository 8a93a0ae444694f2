// A graphql-codegen plugin: the merged SDL of schema/*.graphql as one string constant, so every runtime (the Worker,
// Node, vitest) builds the executable schema from the same text without a .graphql loader.
const { printSchema } = require('graphql');

module.exports = {
  plugin(schema) {
    return `\n/** The merged SDL of schema/*.graphql (generated; \`npm run graphql:codegen\`). */\nexport const typeDefs = ${JSON.stringify(printSchema(schema))};\n`;
  },
};
