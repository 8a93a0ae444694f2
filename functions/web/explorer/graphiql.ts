// yoga's GraphiQL page, alone: the explorer loads this module on first use. Importing `graphql-yoga` itself
// dynamically would keep every export of yoga in the Worker bundle (a dynamic import needs the whole namespace),
// @graphql-tools/schema and /merge included (about 105 KiB that every isolate compiles).
export { renderGraphiQL } from 'graphql-yoga';
