import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { confirm, confirmByTyping, confirmOrOther } from '../../../src/workbench/confirm';

const QUESTION = { question: 'Delete the project "Doomed"?', detail: 'This cannot be undone.', button: 'Delete Project…' };
const TYPED = { expected: 'Doomed', title: 'Delete "Doomed"', prompt: 'Type the project name to confirm: Doomed', mismatch: 'Type the project name exactly: Doomed' };

/** A window that answers the modal with `button` and the input box with `typed`, and records what it was asked. */
function scripted(button: string | undefined, typed?: string) {
  const asked: unknown[][] = [];
  const boxes: { placeHolder?: string; validation?: string }[] = [];
  const window = {
    showWarningMessage: async (...args: unknown[]) => {
      asked.push(args);
      return button;
    },
    showInputBox: async (options: { placeHolder?: string; validateInput: (value: string) => string | undefined }) => {
      const validation = typed === undefined ? undefined : options.validateInput(typed);
      boxes.push({ placeHolder: options.placeHolder, validation });
      return validation ? undefined : typed;
    },
  };
  return { window: window as never, asked, boxes };
}

describe('confirm', () => {
  test('asks with a modal warning carrying the detail and one button; true only for that button', async () => {
    const yes = scripted('Delete Project…');
    assert.equal(await confirm(yes.window, QUESTION), true);
    assert.deepEqual(yes.asked, [['Delete the project "Doomed"?', { modal: true, detail: 'This cannot be undone.' }, 'Delete Project…']]);
    assert.equal(await confirm(scripted(undefined).window, QUESTION), false);
  });

  test('confirmOrOther: the modal with a second button, answered apart from going ahead and Cancel', async () => {
    const other = scripted('Show All');
    assert.equal(await confirmOrOther(other.window, QUESTION, 'Show All'), 'other');
    assert.deepEqual(other.asked, [['Delete the project "Doomed"?', { modal: true, detail: 'This cannot be undone.' }, 'Delete Project…', 'Show All']]);
    assert.equal(await confirmOrOther(scripted('Delete Project…').window, QUESTION, 'Show All'), 'confirmed');
    assert.equal(await confirmOrOther(scripted(undefined).window, QUESTION, 'Show All'), undefined);
  });

  test('confirmByTyping: the modal, then the expected text typed exactly', async () => {
    const exact = scripted('Delete Project…', 'Doomed');
    assert.equal(await confirmByTyping(exact.window, QUESTION, TYPED), true);
    assert.deepEqual(exact.boxes, [{ placeHolder: 'Doomed', validation: undefined }]);

    const wrong = scripted('Delete Project…', 'doomed');
    assert.equal(await confirmByTyping(wrong.window, QUESTION, TYPED), false);
    assert.deepEqual(wrong.boxes, [{ placeHolder: 'Doomed', validation: 'Type the project name exactly: Doomed' }]);

    const cancelled = scripted(undefined, 'Doomed');
    assert.equal(await confirmByTyping(cancelled.window, QUESTION, TYPED), false);
    assert.deepEqual(cancelled.boxes, [], 'no box after the modal is cancelled');
  });
});
