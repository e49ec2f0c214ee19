"use client";

import { useId, useState } from "react";

/** What the Fire form sends besides the input: when to start, and at what priority. */
export interface TFireTiming {
  runAt?: string;
  delayMs?: number;
  priority?: number;
}

type TWhen = "now" | "delay" | "at";

/**
 * When a fired episode may start and its priority among waiting work (SPEC section 16): now,
 * after a delay in minutes, or at a local date and time (sent as an ISO instant); priority 0-10,
 * empty for the expectation's default. The server checks the same bounds.
 */
export function useFireTiming() {
  const [when, setWhen] = useState<TWhen>("now");
  const [delayMinutes, setDelayMinutes] = useState("5");
  const [at, setAt] = useState("");
  const [priority, setPriority] = useState("");
  const minutes = Number(delayMinutes);
  const atDate = at === "" ? null : new Date(at);
  const priorityValue = priority === "" ? undefined : Number(priority);
  const problem =
    when === "delay" && !(Number.isFinite(minutes) && minutes >= 0 && minutes <= 525_600)
      ? "The delay is a number of minutes from 0 to 525,600 (a year)."
      : when === "at" && (atDate === null || Number.isNaN(atDate.getTime()))
        ? "Pick the date and time to start at."
        : priorityValue !== undefined &&
            !(Number.isInteger(priorityValue) && priorityValue >= 0 && priorityValue <= 10)
          ? "Priority is a whole number from 0 to 10."
          : null;
  const timing: TFireTiming = {
    ...(when === "delay" ? { delayMs: Math.round(minutes * 60_000) } : {}),
    ...(when === "at" && atDate !== null ? { runAt: atDate.toISOString() } : {}),
    ...(priorityValue === undefined ? {} : { priority: priorityValue }),
  };
  return {
    when,
    timing,
    problem,
    fields: { when, setWhen, delayMinutes, setDelayMinutes, at, setAt, priority, setPriority },
  };
}

export function FireTimingFields({
  testId,
  state,
}: {
  testId: string;
  state: ReturnType<typeof useFireTiming>;
}) {
  const id = useId();
  const f = state.fields;
  return (
    <fieldset className="fire-timing" data-testid={`${testId}-timing`}>
      <legend>When</legend>
      <label htmlFor={`${id}-when`}>Start</label>
      <select
        id={`${id}-when`}
        value={f.when}
        data-testid={`${testId}-when`}
        onChange={(event) => f.setWhen(event.target.value as TWhen)}
      >
        <option value="now">now</option>
        <option value="delay">after a delay</option>
        <option value="at">at a time</option>
      </select>
      {f.when === "delay" ? (
        <>
          <label htmlFor={`${id}-delay`}>Minutes</label>
          <input
            id={`${id}-delay`}
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            value={f.delayMinutes}
            data-testid={`${testId}-delay`}
            onChange={(event) => f.setDelayMinutes(event.target.value)}
          />
        </>
      ) : null}
      {f.when === "at" ? (
        <>
          <label htmlFor={`${id}-at`}>At (your time)</label>
          <input
            id={`${id}-at`}
            type="datetime-local"
            value={f.at}
            data-testid={`${testId}-at`}
            onChange={(event) => f.setAt(event.target.value)}
          />
        </>
      ) : null}
      <label htmlFor={`${id}-priority`}>Priority</label>
      <input
        id={`${id}-priority`}
        type="number"
        min={0}
        max={10}
        step={1}
        placeholder="default"
        value={f.priority}
        data-testid={`${testId}-priority`}
        onChange={(event) => f.setPriority(event.target.value)}
      />
      {state.problem ? <span className="inline-error">{state.problem}</span> : null}
    </fieldset>
  );
}
