import * as raw from "vscode";
import type { StubControl } from "./vscode";

/** The stub vscode module's control surface (tests run with NODE_PATH pointing at the stub). */
export const stub: StubControl = (raw as unknown as { stub: StubControl }).stub;
