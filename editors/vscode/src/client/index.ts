// The ACP client side of the extension, free of any vscode import so that
// it runs (and is tested) in plain Node.
export { AgentClient, type AgentClientOptions } from "./agentClient";
export { AgentNotFoundError, INSTALL_COMMAND, resolveAgentBinary, goEnvGoPath, type BinaryLookup } from "./binary";
export { initializeRequest, PROTOCOL_VERSION } from "./capabilities";
export type { AgentExit, ClientHandlers } from "./handlers";
export { SerialQueue } from "./serialQueue";
