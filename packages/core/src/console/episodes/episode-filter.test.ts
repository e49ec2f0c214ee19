import { describe, expect, it } from "vitest";
import { SqlParams } from "../../scope/index";
import { episodeFilterSql, inputContainments } from "./episode-filter";

describe("inputContainments", () => {
  it("nests the path and tries the value as a string and as the literal it spells", () => {
    expect(inputContainments({ path: ["customer", "region"], value: "eu" })).toEqual([
      '{"customer":{"region":"eu"}}',
    ]);
    expect(inputContainments({ path: ["count"], value: "12" })).toEqual([
      '{"count":"12"}',
      '{"count":12}',
    ]);
    expect(inputContainments({ path: ["on"], value: "true" })).toEqual([
      '{"on":"true"}',
      '{"on":true}',
    ]);
    expect(inputContainments({ path: ["n"], value: "012" })).toEqual(['{"n":"012"}']);
  });
});

describe("episodeFilterSql", () => {
  it("turns an id prefix into a range of the primary key, and every value into a parameter", () => {
    const params = new SqlParams();
    const sql = episodeFilterSql(
      { env: "prod", idPrefix: "3f2a", input: [{ path: ["a"], value: "x'; DROP" }] },
      params,
    );
    expect(sql).toBe(
      "source_env = $1 AND id BETWEEN $2::uuid AND $3::uuid AND input @> $4::jsonb AND archived_at IS NULL",
    );
    expect(params.values).toEqual([
      "prod",
      "3f2a0000-0000-0000-0000-000000000000",
      "3f2affff-ffff-ffff-ffff-ffffffffffff",
      '{"a":"x\'; DROP"}',
    ]);
  });

  it("lists exhausted episodes: failed after more than one attempt", () => {
    expect(episodeFilterSql({ env: null, exhausted: true }, new SqlParams())).toBe(
      "source_env IS NULL AND status = 'failed' AND attempt > 1 AND archived_at IS NULL",
    );
  });

  it("refuses an id prefix that is not hex (the console validates it first)", () => {
    expect(() => episodeFilterSql({ env: null, idPrefix: "xyz" }, new SqlParams())).toThrow(
      /1-32 hex digits/,
    );
  });
});
