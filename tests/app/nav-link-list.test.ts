import { describe, expect, it } from "vitest";
import { isCurrentItem } from "../../app/components/site/nav-link-list.tsx";

describe("isCurrentItem", () => {
  const home = { to: "/", label: "Home", end: true };
  const projects = { to: "/projects", label: "Projects" };

  it("marks an item without end on its own page and the pages under it", () => {
    expect(isCurrentItem(projects, "/projects")).toBe(true);
    expect(isCurrentItem(projects, "/projects/")).toBe(true);
    expect(isCurrentItem(projects, "/projects/chapter-1")).toBe(true);
    expect(isCurrentItem(projects, "/projectsx")).toBe(false);
    expect(isCurrentItem(projects, "/blog")).toBe(false);
  });

  it("marks an item with end on its own page only", () => {
    expect(isCurrentItem(home, "/")).toBe(true);
    expect(isCurrentItem(home, "/about")).toBe(false);
  });
});
