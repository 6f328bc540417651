import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { AuthProvider, type AuthProviderProps, useAuth } from "../../app/lib/use-auth.tsx";

/** The auth context of the admin area (the spec, "Other"). */

function ShowAuth() {
  const { user, isAdmin, isEditor } = useAuth();
  return createElement("p", null, `${user.name} admin=${isAdmin} editor=${isEditor}`);
}

describe("useAuth", () => {
  it("throws 'useAuth must be used within an AuthProvider' outside its provider", () => {
    expect(() => renderToString(createElement(ShowAuth))).toThrow(
      new Error("useAuth must be used within an AuthProvider"),
    );
  });

  it("gives the user and roles the provider was given", () => {
    const viewer = {
      user: { id: "user-1", name: "Eddie Editor", email: "eddie@example.com" },
      roles: { isAdmin: false, isEditor: true },
    };
    const html = renderToString(
      createElement(
        MemoryRouter,
        null,
        createElement(AuthProvider, { viewer } as AuthProviderProps, createElement(ShowAuth)),
      ),
    );
    expect(html).toContain("Eddie Editor admin=false editor=true");
  });
});
