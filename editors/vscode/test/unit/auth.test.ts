import { strict as assert } from "node:assert";
import { beforeEach, describe, it } from "node:test";
import type { InitializeResponse } from "@agentclientprotocol/sdk";
import { isAuthRequired, offerSignIn, SET_API_KEY, SIGN_IN_TERMINAL, terminalAuthMethod } from "../../src/auth/signIn";
import { stub } from "../stubs/control";

const INIT: Pick<InitializeResponse, "authMethods"> = {
  authMethods: [{ type: "terminal", id: "dsh-acp-login", name: "Sign in with an API key", args: ["login"] }],
};

describe("sign-in", () => {
  beforeEach(() => stub.reset());

  it("recognizes auth-required and the terminal method", () => {
    assert.equal(isAuthRequired({ code: -32000, message: "Authentication required" }), true);
    assert.equal(isAuthRequired(new Error("x")), false);
    assert.equal(terminalAuthMethod(INIT)?.id, "dsh-acp-login");
    assert.equal(terminalAuthMethod({ authMethods: [] }), undefined);
  });

  it("does nothing when dismissed", async () => {
    let set = 0;
    const done = offerSignIn({ init: INIT, binary: "/bin/dsh-acp", setApiKey: async () => {
      set++;
    }, authenticate: async () => undefined });
    assert.equal(await done, "dismissed");
    assert.match(stub.errors[0] ?? "", /needs your model provider.s API key/);
    assert.equal(set, 0);
  });

  it("runs the agent's login in a terminal, then authenticates", async () => {
    stub.errorAnswer = () => SIGN_IN_TERMINAL;
    const authenticated: string[] = [];
    const done = offerSignIn({ init: INIT, binary: "/bin/dsh-acp", setApiKey: async () => undefined, authenticate: async (id) => void authenticated.push(id) });
    while (stub.terminals.length === 0) await new Promise((r) => setImmediate(r));
    const t = stub.terminals[0];
    assert.equal(t?.shellPath, "/bin/dsh-acp");
    assert.deepEqual(t.shellArgs, ["login"]);
    assert.deepEqual(authenticated, []);
    t.dispose();
    assert.equal(await done, "terminal");
    assert.deepEqual(authenticated, ["dsh-acp-login"]);
  });

  it("runs Set API Key", async () => {
    stub.errorAnswer = () => SET_API_KEY;
    let set = 0;
    assert.equal(await offerSignIn({ init: { authMethods: [] }, binary: "b", setApiKey: async () => {
          set++;
        }, authenticate: async () => undefined }), "key");
    assert.equal(set, 1);
  });

  it("asked from the chat, sets the key at once without a notification that would stay", async () => {
    let set = 0;
    assert.equal(await offerSignIn({ init: { authMethods: [] }, binary: "b", setApiKey: async () => {
          set++;
        }, authenticate: async () => undefined }, "choose"), "key");
    assert.equal(set, 1);
    assert.deepEqual(stub.errors, []);
  });

  it("asked from the chat with a terminal sign-in offered, asks which in a QuickPick", async () => {
    const offered: unknown[][] = [];
    stub.quickPickAnswer = (items) => {
      offered.push(items);
      return SET_API_KEY;
    };
    let set = 0;
    assert.equal(await offerSignIn({ init: INIT, binary: "b", setApiKey: async () => {
          set++;
        }, authenticate: async () => undefined }, "choose"), "key");
    assert.deepEqual(offered, [[SET_API_KEY, SIGN_IN_TERMINAL]]);
    assert.equal(set, 1);
    assert.deepEqual(stub.errors, []);
  });
});
