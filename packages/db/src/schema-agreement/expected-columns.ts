import type * as DMMF from "@prisma/dmmf";

/**
 * The PostgreSQL type (as `format_type` prints it) that Prisma's migration engine creates for a
 * scalar field, given its Prisma type and optional native type attribute.
 */
export function expectedColumnType(field: DMMF.Field): string {
  const [native, args = []] = (field.nativeType as [string, string[]] | null | undefined) ?? [];
  const base = ((): string => {
    switch (field.type) {
      case "String":
        if (native === "VarChar") return `character varying(${args[0]})`;
        if (native === "Uuid") return "uuid";
        return "text";
      case "Int":
        return "integer";
      case "BigInt":
        return "bigint";
      case "Float":
        return "double precision";
      case "Boolean":
        return "boolean";
      case "Json":
        return "jsonb";
      case "DateTime":
        if (native === "Timestamptz") return `timestamp(${args[0] ?? 3}) with time zone`;
        return `timestamp(3) without time zone`;
      default:
        throw new Error(
          `No expected PostgreSQL type for Prisma type ${field.type} (${field.name})`,
        );
    }
  })();
  return field.isList ? `${base}[]` : base;
}

export const columnName = (field: DMMF.Field) => field.dbName ?? field.name;
