// Which profile a spec file names (its "profile" field). Files name a profile by its id, which never
// changes; older files name it by its label, which the user may rename and which, for the sandbox
// profiles, follows the display language ("Sandbox (RSA)" / "沙盒 (RSA)"): such a file still targets the
// active profile when the label (or one of the profile's known labels) matches, and is then told to move to
// the id. Library-free: the editor imports it directly (docs/specs.md).

export type ProfileRefMatch =
  /** The file names no profile: it runs on the active one. */
  | { kind: 'any' }
  /** It names the active profile by id. */
  | { kind: 'id' }
  /** It names the active profile by a label (deprecated): write `id` instead. */
  | { kind: 'label'; id: string }
  /** It names another profile. */
  | { kind: 'other' };

export function matchProfileRef(target: string | undefined, profile: { id: string; label: string }, knownLabels: readonly string[] = []): ProfileRefMatch {
  if (target === undefined) return { kind: 'any' };
  if (target === profile.id) return { kind: 'id' };
  const normal = (text: string): string => text.normalize('NFKC').trim();
  const wanted = normal(target);
  if (wanted === normal(profile.label) || knownLabels.some((label) => normal(label) === wanted)) return { kind: 'label', id: profile.id };
  return { kind: 'other' };
}
