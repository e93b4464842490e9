/**
 * The `upstream` option of every field and object type (field-reads.ts), as
 * a Pothos plugin: declared in the builder's global types, as
 * `@pothos/plugin-complexity` declares `complexity`, so that a field's
 * declaration is typed by the field's own arguments (`SlicedSize.slicedBy`
 * names a number argument of that field, `checkArgs` takes its arguments).
 * The plugin only moves the option into `extensions.upstream`, where the
 * estimate, the cold fan-out and the printed cost directives read it back.
 */
import SchemaBuilder, {
  BasePlugin,
  type FieldNullability,
  type InputFieldMap,
  type InputShapeFromFields,
  type PothosOutputFieldConfig,
  type PothosTypeConfig,
  type SchemaTypes,
  type TypeParam,
} from '@pothos/core';
import type { FieldReads, ObjectReads } from './field-reads.js';

const pluginName = 'upstream';

export default pluginName;

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      upstream: UpstreamReadsPlugin<Types>;
    }

    export interface FieldOptions<
      Types extends SchemaTypes = SchemaTypes,
      ParentShape = unknown,
      Type extends TypeParam<Types> = TypeParam<Types>,
      Nullable extends FieldNullability<Type> = FieldNullability<Type>,
      Args extends InputFieldMap = InputFieldMap,
      ResolveShape = unknown,
      ResolveReturnShape = unknown,
    > {
      /** What the field reads from the upstream, per object it is selected on (field-reads.ts). */
      upstream?: FieldReads<InputShapeFromFields<Args>>;
    }

    export interface ObjectTypeOptions<Types extends SchemaTypes = SchemaTypes, Shape = unknown> {
      /** What a parent may hold of such an object, and which read loads the rest (field-reads.ts). */
      upstream?: ObjectReads;
    }
  }
}

export class UpstreamReadsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): PothosOutputFieldConfig<Types> {
    const upstream = fieldConfig.pothosOptions.upstream as FieldReads | undefined;
    if (upstream === undefined) return fieldConfig;
    // The declaration itself, not a copy: `READS_NOTHING` is recognised by identity.
    return Object.assign({}, fieldConfig, {
      extensions: Object.assign({}, fieldConfig.extensions, { upstream }),
    });
  }

  override onTypeConfig(typeConfig: PothosTypeConfig): PothosTypeConfig {
    if (typeConfig.kind !== 'Object') return typeConfig;
    const upstream = typeConfig.pothosOptions.upstream;
    if (upstream === undefined) return typeConfig;
    return Object.assign({}, typeConfig, {
      extensions: Object.assign({}, typeConfig.extensions, { upstream }),
    });
  }
}

SchemaBuilder.registerPlugin(pluginName, UpstreamReadsPlugin);
