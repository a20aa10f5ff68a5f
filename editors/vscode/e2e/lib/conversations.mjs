// The steps that drive conversations in the chat view, after the main
// scenario (the model's answers are scenario-conversations.jsonl, last in
// the script): a new conversation whose last prompt is edited and sent
// again, an image dropped onto the input, a third conversation; then
// History (search, open and replay, rename, delete), checked against
// dsh-acp's state directory.
import { join } from "node:path";
import { closeQuickInput, clickRowButton, fillRename, historyRows, historyShownAgain, leaveRename, openHistory, searchHistory } from "./history.mjs";
import { indexNames, sessionEvents } from "./stored.mjs";
import { THEMES, shotPassingInThemes, useTheme } from "./themes.mjs";
import { UI_TIMEOUT, viewTitleAction, waitForPrompt } from "./workbench.mjs";

// The prompts, and the answers of scenario-conversations.jsonl in order.
const SKY = "Which colour is the sky?";
const SKY_ANSWER = "The sky is blue.";
// The edited prompt: not containing SKY, so the replaced message is told apart.
const SEA = "Which colour is the sea?";
const SEA_ANSWER = "The sea is green and blue.";
const IMAGE_PROMPT = "What does the picture show?";
const IMAGE_ANSWER = "A small blue square.";
const FORGET = "A question to forget";
const FORGET_ANSWER = "Forgotten as soon as asked.";
const NEW_NAME = "Sea colours";
// A 2×2 blue PNG, dropped onto the input (not the one-pixel PNG pasted earlier, so its block is told apart).
const BLUE_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGOQizohF3WCAUIBACBmBQGutJrkAAAAAElFTkSuQmCC";
const DATE = /\b\d{4}\b.*\d{1,2}:\d{2}/;

/**
 * The scenario's runner of one step (a soft one is recorded and the scenario goes on).
 * @typedef {(name: string, fn: () => Promise<unknown>, options?: { soft?: boolean }) => Promise<void>} Step
 */

/**
 * Runs the conversation steps, each soft (a later one that needs what an
 * earlier one made fails at once when it is missing).
 * @param {object} options
 * @param {import("./workbench.mjs").Page} options.page
 * @param {import("./workbench.mjs").FrameLocator} options.chat the chat view
 * @param {string} options.stateDir dsh-acp's state directory
 * @param {string} options.artifacts where screenshots go
 * @param {Step} options.step
 * @param {(name: string) => Promise<void>} options.both a walk-through screenshot in the light and the dark theme
 * @param {(name: string, err: unknown) => Promise<void>} options.missed notes a walk-through screenshot that could not be taken
 * @returns {Promise<void>}
 */
export async function runConversations({ page, chat, stateDir, artifacts, step, both, missed }) {
  /** @param {string} id */
  const byTestId = (id) => chat.locator(`[data-testid="${id}"]`);
  /** @param {string} text */
  const answer = (text) => byTestId("message-agent").filter({ hasText: text }).first().waitFor({ timeout: UI_TIMEOUT });
  /** @param {string} text */
  const send = async (text) => {
    await byTestId("chat-input").fill(text);
    await byTestId("chat-input").press("Enter");
  };
  // The session id the dropdown gives the conversation titled title.
  /** @param {string} title */
  const sessionId = async (title) => {
    const option = chat.locator('[data-testid="sessions-select"] option', { hasText: title }).first();
    await option.waitFor({ state: "attached", timeout: UI_TIMEOUT });
    const id = await option.getAttribute("value");
    if (!id) throw new Error(`the dropdown's ${JSON.stringify(title)} has no session id`);
    return id;
  };
  // A new conversation: the dropdown lists the current one as new until its first prompt.
  const newConversation = async () => {
    await viewTitleAction(page, "New Conversation").click();
    await chat.locator('[data-testid="sessions-select"] option', { hasText: "New conversation (current)" }).waitFor({ state: "attached", timeout: UI_TIMEOUT });
  };
  /** @param {string} name @param {() => Promise<unknown>} show @param {() => Promise<unknown>} [hide] */
  const passing = (name, show, hide = () => closeQuickInput(page)) => shotPassingInThemes(page, chat, artifacts, name, { show, hide, missed });
  /** @type {string | undefined} */
  let sky;
  /** @type {string | undefined} */
  let forget;
  /** @param {string | undefined} id @param {string} what @returns {string} */
  const need = (id, what) => {
    if (!id) throw new Error(`needs ${what}, which an earlier step did not make`);
    return id;
  };

  await step(
    "a new conversation; Edit on its last message: the text back in the input, changed and sent, the turn redone with the edited text",
    async () => {
      await newConversation();
      await send(SKY);
      await answer(SKY_ANSWER);
      sky = await sessionId(SKY);
      const message = byTestId("message-user").filter({ hasText: SKY }).last();
      await message.locator('[data-testid="edit-last"]').click();
      await byTestId("editing").waitFor({ timeout: UI_TIMEOUT });
      const offered = await byTestId("chat-input").inputValue();
      if (offered !== SKY) throw new Error(`Edit put ${JSON.stringify(offered)} in the input, want ${JSON.stringify(SKY)}`);
      await both("w18-edit-last");
      await send(SEA);
      await answer(SEA_ANSWER);
      await chat.locator('body[data-turn="end_turn"]').waitFor({ state: "attached", timeout: UI_TIMEOUT });
      await byTestId("message-user").filter({ hasText: SEA }).waitFor({ timeout: UI_TIMEOUT });
      if ((await byTestId("message-user").filter({ hasText: SKY }).count()) !== 0) throw new Error("the edited message is still shown as it was");
      if (await byTestId("editing").isVisible()) throw new Error("the input is still in edit mode after the send");
    },
    { soft: true },
  );

  await step(
    "an image dropped onto the input shows as a thumbnail and goes with the prompt to dsh-acp as an ACP image block; the edited prompt is what dsh-acp stored",
    async () => {
      const id = need(sky, "the edited conversation");
      const taken = await byTestId("chat-input").evaluate((input, data) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], "square.png", { type: "image/png" }));
        /** @param {string} type */
        const fire = (type) => input.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
        fire("dragenter");
        // A drop target cancels dragover (else the browser drops nothing there).
        const over = !fire("dragover");
        fire("drop");
        return over;
      }, BLUE_PNG);
      if (!taken) throw new Error("the input does not take a file dragged over it (dragover not cancelled)");
      await byTestId("image-chip").and(chat.locator('[title="square.png"]')).waitFor({ timeout: UI_TIMEOUT });
      await both("w19-image-dropped");
      await send(IMAGE_PROMPT);
      await answer(IMAGE_ANSWER);
      const context = await byTestId("message-context").last().innerText();
      if (!context.includes("1 image")) throw new Error(`the prompt's context reads ${JSON.stringify(context)}, want 1 image`);
      // dsh-acp writes each event before the editor is shown it: the answer is on screen, so the prompt is on disk.
      const users = ((await sessionEvents(stateDir, id)) ?? []).filter((e) => e.kind === "user/message").map((e) => JSON.stringify(e.data));
      if (!users.some((u) => u.includes(`"text":${JSON.stringify(SEA)}`))) throw new Error(`dsh-acp stored no prompt ${JSON.stringify(SEA)} in session ${id}: ${users.join(" ")}`);
      if (!users.some((u) => u.includes('"type":"image"') && u.includes(BLUE_PNG))) throw new Error(`dsh-acp stored no image block of the dropped PNG in session ${id}`);
    },
    { soft: true },
  );

  await step(
    "a third conversation, stored by dsh-acp",
    async () => {
      await newConversation();
      await send(FORGET);
      await answer(FORGET_ANSWER);
      const id = await sessionId(FORGET);
      if (!(await sessionEvents(stateDir, id))) throw new Error(`dsh-acp has no log of session ${id}`);
      forget = id;
    },
    { soft: true },
  );

  await step(
    "History lists the conversations with their dates; typing searches them; the one picked loads, replays and is the dropdown's current one",
    async () => {
      const id = need(sky, "the edited conversation");
      need(forget, "the third conversation");
      await openHistory(page);
      const rows = await historyRows(page);
      for (const title of [SKY, FORGET, "Update the notes"]) {
        if (!rows.some((r) => r.label.startsWith(title))) throw new Error(`History lacks ${JSON.stringify(title)}: ${JSON.stringify(rows)}`);
      }
      const undated = rows.filter((r) => !DATE.test(r.description));
      if (undated.length) throw new Error(`History shows no date for ${JSON.stringify(undated)}`);
      if (!rows.find((r) => r.label === FORGET)?.description.includes("(open)")) throw new Error(`History does not mark the open conversation: ${JSON.stringify(rows)}`);
      await closeQuickInput(page);
      await passing("w20-history", () => openHistory(page));
      const search = async () => {
        await openHistory(page);
        await searchHistory(page, "colour", SKY);
      };
      await passing("w21-history-search", search);
      await search();
      await page.keyboard.press("Enter");
      await answer(IMAGE_ANSWER);
      await byTestId("message-user").filter({ hasText: SEA }).waitFor({ timeout: UI_TIMEOUT });
      await chat.locator(`[data-testid="sessions-select"] option[value="${id}"]`).waitFor({ state: "attached", timeout: UI_TIMEOUT });
      const current = await byTestId("sessions-select").inputValue();
      if (current !== id) throw new Error(`the dropdown's current conversation is ${JSON.stringify(current)}, want the one opened, ${id}`);
    },
    { soft: true },
  );

  await step(
    "Rename in History: the new name shows in History and in the dropdown",
    async () => {
      need(sky, "the edited conversation");
      const rename = async () => {
        await openHistory(page);
        await searchHistory(page, "colour", SKY);
        await clickRowButton(page, SKY, "Rename");
        await fillRename(page, { was: SKY, title: NEW_NAME });
      };
      await passing("w22-rename", rename, () => leaveRename(page));
      await rename();
      await page.keyboard.press("Enter");
      await searchHistory(page, "colour", NEW_NAME);
      await closeQuickInput(page);
      await chat.locator('[data-testid="sessions-select"] option', { hasText: NEW_NAME }).waitFor({ state: "attached", timeout: UI_TIMEOUT });
      const selected = await byTestId("sessions-select").evaluate((s) => (s instanceof HTMLSelectElement ? (s.selectedOptions[0]?.textContent ?? "") : ""));
      if (!selected.startsWith(NEW_NAME)) throw new Error(`the dropdown shows ${JSON.stringify(selected)}, want ${JSON.stringify(NEW_NAME)}`);
      await both("w23-renamed");
    },
    { soft: true },
  );

  await step(
    "Delete in History asks first (Cancel keeps it); Delete removes it from History, the dropdown and dsh-acp's store",
    async () => {
      const id = need(forget, "the third conversation");
      // Asked in a modal: shot in light, cancelled; asked again in dark, deleted.
      const ask = async () => {
        await openHistory(page);
        await searchHistory(page, "forget", FORGET);
        await clickRowButton(page, FORGET, "Delete");
        const prompt = await waitForPrompt(page, "Delete the conversation");
        const text = await prompt.el.innerText();
        if (!text.includes(FORGET)) throw new Error(`the confirmation does not name the conversation: ${JSON.stringify(text)}`);
        return prompt;
      };
      const [dark, light] = [THEMES[1], THEMES[0]];
      const themed = await useTheme(page, chat, light).then(() => true, async (/** @type {unknown} */ err) => missed("w24-delete-ask-light", err).then(() => false));
      const first = await ask();
      if (themed) await page.screenshot({ path: join(artifacts, "w24-delete-ask-light.png"), animations: "disabled" });
      await first.click("Cancel");
      await historyShownAgain(page);
      if (!(await historyRows(page)).some((r) => r.label === FORGET)) throw new Error("Cancel deleted the conversation");
      await closeQuickInput(page);
      if (!(await sessionEvents(stateDir, id))) throw new Error(`Cancel removed session ${id}'s log`);
      const darkened = await useTheme(page, chat, dark).then(() => true, async (/** @type {unknown} */ err) => missed("w24-delete-ask-dark", err).then(() => false));
      const second = await ask();
      if (darkened) await page.screenshot({ path: join(artifacts, "w24-delete-ask-dark.png"), animations: "disabled" });
      await second.click("Delete");
      await historyShownAgain(page);
      const rows = await historyRows(page);
      if (rows.some((r) => r.label === FORGET)) throw new Error(`History still lists the deleted conversation: ${JSON.stringify(rows)}`);
      if (darkened) await page.screenshot({ path: join(artifacts, "w25-deleted-dark.png"), animations: "disabled" });
      await closeQuickInput(page);
      await useTheme(page, chat, light).then(
        async () => {
          await openHistory(page);
          await page.screenshot({ path: join(artifacts, "w25-deleted-light.png"), animations: "disabled" });
          await closeQuickInput(page);
        },
        (/** @type {unknown} */ err) => missed("w25-deleted-light", err),
      );
      await chat.locator(`[data-testid="sessions-select"] option[value="${id}"]`).waitFor({ state: "detached", timeout: UI_TIMEOUT });
      if (await sessionEvents(stateDir, id)) throw new Error(`dsh-acp still keeps session ${id}'s log`);
      if (await indexNames(stateDir, id)) throw new Error(`dsh-acp's index.json still names session ${id}`);
    },
    { soft: true },
  );
}

/**
 * The step for a conversation open in another view (the editor tab
 * opened earlier, its tab's title tabTitle): the side bar's History says
 * so, and picking it brings that tab to the front instead of loading the
 * conversation a second time in the side bar.
 * @param {object} options
 * @param {import("./workbench.mjs").Page} options.page
 * @param {import("./workbench.mjs").FrameLocator} options.chat the side bar's chat view
 * @param {string | undefined} options.tabTitle
 * @param {Step} options.step
 * @returns {Promise<void>}
 */
export async function runOpenElsewhere({ page, chat, tabTitle, step }) {
  await step(
    "History marks the conversation open in the editor tab; picking it brings the tab to the front and leaves the side bar's conversation as it was",
    async () => {
      if (tabTitle === undefined) throw new Error("no conversation tab was opened");
      const select = chat.locator('[data-testid="sessions-select"]');
      const before = await select.inputValue();
      // Another editor in front, so that the tab coming back to it shows.
      await page.locator(".part.editor .tabs-container .tab", { hasText: "notes.md" }).first().click({ timeout: UI_TIMEOUT });
      await openHistory(page);
      const rows = await historyRows(page);
      const elsewhere = rows.filter((r) => r.description.includes("(open in another view)"));
      if (elsewhere.length !== 1) throw new Error(`History marks ${elsewhere.length} conversations open in another view, want the tab's one: ${JSON.stringify(rows)}`);
      const label = elsewhere[0]?.label ?? "";
      await page
        .locator(".quick-input-widget .quick-input-list .monaco-list-row", { has: page.locator(".label-description", { hasText: "(open in another view)" }) })
        .first()
        .click({ timeout: UI_TIMEOUT });
      await page
        .locator(".part.editor .tabs-container .tab.active", { hasText: tabTitle })
        .waitFor({ timeout: UI_TIMEOUT })
        .catch(async () => {
          const front = await page.locator(".part.editor .tabs-container .tab.active").first().innerText();
          throw new Error(`picking ${JSON.stringify(label)} left ${JSON.stringify(front.trim())} in front, not the conversation's tab ${JSON.stringify(tabTitle)}`);
        });
      const after = await select.inputValue();
      if (after !== before) throw new Error(`the side bar's conversation changed from ${before} to ${after} (${JSON.stringify(label)} loaded there too)`);
    },
    { soft: true },
  );
}

