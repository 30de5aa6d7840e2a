// Generated from the service's OpenAPI document by `deno task sdk:types`; do not edit.
export {};
