import { RequestError, type ReadTextFileRequest, type ReadTextFileResponse } from "@agentclientprotocol/sdk";
import { currentText } from "./documents";
import { sliceLines } from "./lines";

/**
 * Answers fs/read_text_file from the open document when there is one
 * (unsaved edits included), else from the workspace file system. A missing
 * file is ACP's resource-not-found error.
 */
export async function readTextFile(req: ReadTextFileRequest): Promise<ReadTextFileResponse> {
  const text = await currentText(req.path);
  if (text === undefined) throw RequestError.resourceNotFound(req.path);
  return { content: sliceLines(text, req.line, req.limit) };
}
