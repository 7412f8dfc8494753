// Set Spec Secret…: the name a spec file references ({"secret": "name"}), then its value, as one flow
// of ui/multiStepInput (a title and "n/2" on each step; Back from the value keeps the name). Given a
// usable name (a Plan's missing-secret link), only the value is asked; any other given name is shown in
// the name step with what is wrong with it. The value goes to SecretStorage only.

import * as vscode from 'vscode';
import { MultiStepInput, type Step } from '../ui/multiStepInput';

const SECRET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The name and value typed, or undefined when the user backed out. */
export async function askSpecSecret(given: string | undefined): Promise<{ name: string; value: string } | undefined> {
  const title = vscode.l10n.t('Set Spec Secret');
  const givenName = given !== undefined && SECRET_NAME.test(given) ? given : undefined;
  const answers = { name: given ?? '', value: '' };
  const askValue: Step = async (input) => {
    answers.value = await input.showInputBox({
      title,
      ...(givenName === undefined ? { step: 2, totalSteps: 2 } : {}),
      value: '',
      prompt: vscode.l10n.t('Value of "{0}" (stored in the editor\'s secret storage, never in a file)', answers.name),
      password: true,
    });
  };
  const finished = await MultiStepInput.run(
    givenName !== undefined
      ? askValue
      : async (input) => {
          answers.name = await input.showInputBox({
            title,
            step: 1,
            totalSteps: 2,
            value: answers.name,
            prompt: vscode.l10n.t('Name, as a spec file references it: {"secret": "name"}'),
            validate: (value) => (SECRET_NAME.test(value) ? undefined : vscode.l10n.t('Letters, digits, . _ - (up to 128).')),
          });
          return askValue;
        },
  );
  return finished ? answers : undefined;
}
