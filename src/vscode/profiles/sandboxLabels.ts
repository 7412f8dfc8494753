// The labels "Connect to Local Sandbox" gives its two profiles, in every display language it speaks: the
// label is written in the language of the day the sandbox was connected, so a spec file naming the
// profile by label (before files used ids) may carry any of them. No editor API: the unit test
// (test/unit/specs/profileRef.test.ts) compares this table with the l10n bundles.

export const SANDBOX_PROFILE_LABELS: Readonly<Record<string, readonly string[]>> = {
  'sandbox-rsa': ['Sandbox (RSA)', '沙盒 (RSA)'],
  'sandbox-token': ['Sandbox (token)', '沙盒 (令牌)'],
};

/** The labels a profile has had in any language (none for a profile the user named). */
export function knownProfileLabels(profileId: string): readonly string[] {
  return Object.hasOwn(SANDBOX_PROFILE_LABELS, profileId) ? (SANDBOX_PROFILE_LABELS[profileId] ?? []) : [];
}
