/**
 * Fastify's own schema compilers (ajv for requests, fast-json-stringify for answers), made lazy and
 * shared. Fastify compiles every route's schemas when the route is added, with new compilers for
 * every instance: a fifth of the server's start went to compiling schemas of calls it might never
 * answer, and a process that builds the application more than once (the API tests build one per
 * suite and database) compiled them all again each time. Here a route's schema is compiled when
 * the route is first called, once per process for the same schema (by its text), and
 * `compileEverySchema` compiles what is still waiting (a test does, so that a schema that does not
 * compile fails there rather than at its first call).
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type ValidatorFactory = NonNullable<Factories['buildValidator']>;
type SerializerFactory = NonNullable<Factories['buildSerializer']>;

const validators = AjvCompiler();
const serializers = SerializerSelector();
const compiled = new Map<string, unknown>();
const waiting = new Set<() => unknown>();

/** The function compiled under `key`: compiled by `make` when first asked for, then kept. */
function once<T>(key: string, make: () => T): () => T {
  const get = () => {
    if (!compiled.has(key)) compiled.set(key, make());
    waiting.delete(get);
    return compiled.get(key) as T;
  };
  if (!compiled.has(key)) waiting.add(get);
  return get;
}

/** Compiles every schema still waiting for its route's first call; throws as a compiler would. */
export function compileEverySchema(): void {
  for (const get of [...waiting]) get();
}

type Validate = ((data: unknown) => unknown) & { errors?: unknown };

const buildValidator = ((externalSchemas, options) => {
  const compile = validators(externalSchemas, options);
  const context = JSON.stringify([externalSchemas, options?.customOptions]);
  return (route: Parameters<ReturnType<ValidatorFactory>>[0]) => {
    const get = once(
      `v${context}${route.httpPart}${JSON.stringify(route.schema)}`,
      () => compile(route) as unknown as Validate,
    );
    // Fastify reads a failed validation's errors from the function it was given.
    const validate: Validate = (data) => {
      const fn = get();
      const valid = fn(data);
      validate.errors = fn.errors;
      return valid;
    };
    return validate;
  };
}) as ValidatorFactory;

const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
  const compile = serializers(externalSchemas, serializerOptions);
  const context = JSON.stringify([externalSchemas, serializerOptions]);
  return (route) => {
    const get = once(`s${context}${JSON.stringify(route.schema)}`, () => compile(route));
    return (data: unknown) => get()(data);
  };
};

export const compilersFactory = { buildValidator, buildSerializer } as Factories;
