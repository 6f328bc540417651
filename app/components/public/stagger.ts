import type { CSSProperties } from "react";

/**
 * The style of the index-th card of a staggered list (see .stagger-in in app.css):
 * 0.1 s per card, 0.05 s per skill. The CSP allows inline style attributes.
 */
export function staggerStyle(index: number, step: "card" | "skill" = "card"): CSSProperties {
  return { "--stagger": index, "--stagger-step": step === "card" ? "0.1s" : "0.05s" } as CSSProperties;
}

export const STAGGER_CLASS = "stagger-in";
