"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import { withEnv } from "@/lib/url-state";
import { GO_SHORTCUTS, OPEN_SHORTCUTS_EVENT, OTHER_SHORTCUTS } from "./shortcuts";

// A `g` waits this long for its second key; GitHub uses about the same.
const SEQUENCE_MS = 1_200;

/** Typing in a field, or holding a modifier, is never a shortcut. */
function isTyping(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  return (
    target.isContentEditable ||
    ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) ||
    target.closest("dialog[open]") !== null
  );
}

/** The page's search box if it has one (`data-search`), else its first filter. */
function focusSearch(): boolean {
  const field = document.querySelector<HTMLElement>(
    "main [data-search], main .filter-bar input, main .filter-bar select",
  );
  field?.focus();
  return field !== null;
}

/** `/`, `g` + letter and `?` everywhere in the console, and the dialog that lists them. */
export function KeyboardShortcuts() {
  const router = useRouter();
  const env = useSearchParams().get("env");
  const dialog = useRef<HTMLDialogElement>(null);
  const pendingG = useRef(0);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event)) return;
      if (pendingG.current > Date.now()) {
        pendingG.current = 0;
        const target = GO_SHORTCUTS.find((shortcut) => shortcut.key === event.key);
        if (target) {
          event.preventDefault();
          router.push(withEnv(target.href, env));
        }
        return;
      }
      if (event.key === "g") pendingG.current = Date.now() + SEQUENCE_MS;
      else if (event.key === "/" && focusSearch()) event.preventDefault();
      else if (event.key === "?") {
        event.preventDefault();
        dialog.current?.showModal();
      }
    };
    // The help button of the top bar opens the same dialog.
    const onHelp = () => dialog.current?.showModal();
    window.addEventListener("keydown", onKey);
    window.addEventListener(OPEN_SHORTCUTS_EVENT, onHelp);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener(OPEN_SHORTCUTS_EVENT, onHelp);
    };
  }, [router, env]);

  return (
    <dialog
      ref={dialog}
      className="shortcuts-dialog"
      aria-labelledby="shortcuts-title"
      data-testid="shortcuts-dialog"
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself) closes it.
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
    >
      <div className="shortcuts-body">
        <h2 id="shortcuts-title" className="section-title">
          Keyboard shortcuts
        </h2>
        <dl className="shortcuts-list">
          {OTHER_SHORTCUTS.map((shortcut) => (
            <div key={shortcut.label}>
              <dt>
                {shortcut.keys.map((key) => (
                  <kbd key={key}>{key}</kbd>
                ))}
              </dt>
              <dd>{shortcut.label}</dd>
            </div>
          ))}
          {GO_SHORTCUTS.map((shortcut) => (
            <div key={shortcut.key}>
              <dt>
                <kbd>g</kbd> <kbd>{shortcut.key}</kbd>
              </dt>
              <dd>{shortcut.label}</dd>
            </div>
          ))}
        </dl>
        <form method="dialog">
          <button type="submit" className="button button-small">
            Close
          </button>
        </form>
      </div>
    </dialog>
  );
}
