import type { WindowApi } from './window';

/** A modal question before a destructive action. */
export interface Confirmation {
  /** e.g. `Delete the notebook "Weekly review"?` */
  readonly question: string;
  /** What going ahead costs: what is lost, whether it can be undone. */
  readonly detail: string;
  /** The button that goes ahead; VS Code adds Cancel. */
  readonly button: string;
}

/** A name the user types to confirm, after the modal question. */
export interface TypedConfirmation {
  /** What must be typed, exactly (e.g. the project's name). */
  readonly expected: string;
  readonly title: string;
  readonly prompt: string;
  /** What the box says while the text differs. */
  readonly mismatch: string;
}

/** Asks with a modal warning; true when the user chose the button. Only for destructive actions. */
export async function confirm(window: Pick<WindowApi, 'showWarningMessage'>, confirmation: Confirmation): Promise<boolean> {
  const answer = await window.showWarningMessage(confirmation.question, { modal: true, detail: confirmation.detail }, confirmation.button);
  return answer === confirmation.button;
}

/**
 * The modal question with a second button besides going ahead (e.g. "Show All Losses" when the detail can only
 * sum up): 'confirmed', 'other', or undefined for Cancel.
 */
export async function confirmOrOther(
  window: Pick<WindowApi, 'showWarningMessage'>,
  confirmation: Confirmation,
  other: string,
): Promise<'confirmed' | 'other' | undefined> {
  const answer = await window.showWarningMessage(confirmation.question, { modal: true, detail: confirmation.detail }, confirmation.button, other);
  return answer === confirmation.button ? 'confirmed' : answer === other ? 'other' : undefined;
}

/** The modal question, then the expected text typed exactly: for what cannot be undone at all. */
export async function confirmByTyping(
  window: Pick<WindowApi, 'showWarningMessage' | 'showInputBox'>,
  confirmation: Confirmation,
  typed: TypedConfirmation,
): Promise<boolean> {
  if (!(await confirm(window, confirmation))) {
    return false;
  }
  const answer = await window.showInputBox({
    title: typed.title,
    prompt: typed.prompt,
    placeHolder: typed.expected,
    validateInput: (value) => (value === typed.expected ? undefined : typed.mismatch),
  });
  return answer === typed.expected;
}
