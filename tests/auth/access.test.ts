import { describe, expect, it } from "vitest";
import { requiredRoleForPath, safeRedirectPath } from "../../server/auth/access.ts";

describe("requiredRoleForPath", () => {
  it.each([
    ["/admin", "editor"],
    ["/admin/home", "editor"],
    ["/admin/projects.data", "editor"],
    ["/admin/settingsx", "editor"],
    ["/admin/settings", "admin"],
    ["/admin/settings/", "admin"],
    ["/admin/settings.data", "admin"],
    ["/admin/SETTINGS", "admin"],
    ["/admin/%73ettings", "admin"],
    ["/admin/Newsletter", "admin"],
    ["/admin/users/someone", "admin"],
    ["/api/admin/users", "admin"],
    ["/api/newsletter/test-email", "admin"],
    ["/api/admin/newsletter/export.csv", "admin"],
  ])("%s needs %s", (path, role) => {
    expect(requiredRoleForPath(path)).toBe(role);
  });
});

describe("safeRedirectPath", () => {
  it.each([
    ["/admin/settings", "/admin/settings"],
    ["/admin?tab=2#x", "/admin?tab=2#x"],
    ["/admin/../admin/tips", "/admin/tips"],
  ])("keeps the same-origin path %s", (value, expected) => {
    expect(safeRedirectPath(value)).toBe(expected);
  });

  it.each([
    null,
    "",
    "admin",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "/\u0000x",
    "/ok\\..\\evil",
    "/..//evil.example",
    "/%2e%2e//evil.example/",
    "/.//evil.example",
    "/%2E//evil.example",
    "/admin/../..//evil.example",
  ])("ignores %j", (value) => {
    expect(safeRedirectPath(value)).toBeUndefined();
  });
});
