"use client";

import styles from "./dynamic-actors.module.css";
import { TRIGGER_KINDS, type TExpectationDraft, type TTriggerKind } from "./actor-draft";

/** One expectation of the dynamic actor form: id, strategy, trigger, recovery, wall budget. */
export function ExpectationFields({
  index,
  draft,
  strategies,
  onChange,
  onRemove,
}: {
  index: number;
  draft: TExpectationDraft;
  /** Strategy names live workers registered; a stored name no worker has is still listed. */
  strategies: readonly string[];
  onChange: (draft: TExpectationDraft) => void;
  onRemove: (() => void) | null;
}) {
  const set = (patch: Partial<TExpectationDraft>) => onChange({ ...draft, ...patch });
  const names =
    draft.strategy === "" || strategies.includes(draft.strategy)
      ? strategies
      : [draft.strategy, ...strategies];
  const label = (what: string) => `Expectation ${index + 1} ${what}`;
  /** A text field's value and change, bound to one field of the draft. */
  const bind = (field: "id" | "strategy" | "rule" | "timezone" | "maxWallMs") => ({
    value: draft[field],
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      set({ [field]: event.target.value }),
  });
  return (
    <div className={styles.expectation} data-testid={`expectation-${index}`}>
      <div className={styles.row}>
        <span className={styles.label}>Expectation {index + 1}</span>
        <input aria-label={label("id")} placeholder="id, e.g. run" {...bind("id")} required />
        <select aria-label={label("strategy")} {...bind("strategy")} required>
          <option value="" disabled>
            {strategies.length === 0 ? "no live worker registered a strategy" : "strategy…"}
          </option>
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <select
          aria-label={label("recovery policy")}
          value={draft.recoveryPolicy}
          onChange={(event) =>
            set({ recoveryPolicy: event.target.value === "restart" ? "restart" : "fail" })
          }
        >
          <option value="fail">recovery: fail</option>
          <option value="restart">recovery: restart</option>
        </select>
        <input
          className={styles.narrow}
          aria-label={label("max wall ms")}
          placeholder="max wall ms"
          type="number"
          min={1}
          {...bind("maxWallMs")}
        />
        {onRemove ? (
          <button type="button" className="button button-small" onClick={onRemove}>
            Remove
          </button>
        ) : null}
      </div>
      <div className={styles.row}>
        <span className={styles.label}>Trigger</span>
        <select
          aria-label={label("trigger kind")}
          value={draft.triggerKind}
          onChange={(event) => set({ triggerKind: event.target.value as TTriggerKind })}
        >
          {TRIGGER_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
        {draft.triggerKind === "event" ? (
          <input
            aria-label={label("event")}
            placeholder="event topic, e.g. resource.updated"
            {...bind("rule")}
            required
          />
        ) : null}
        {draft.triggerKind === "schedule" ? (
          <>
            <input
              aria-label={label("cron")}
              placeholder="cron, e.g. 0 9 * * *"
              {...bind("rule")}
              required
            />
            <input
              className={styles.narrow}
              aria-label={label("time zone")}
              placeholder="UTC"
              {...bind("timezone")}
            />
          </>
        ) : null}
        {draft.triggerKind === "manual" ? (
          <span className={styles.label}>fired from the console, REST or a client only</span>
        ) : null}
      </div>
    </div>
  );
}
