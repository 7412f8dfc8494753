// The specs core as its users reach it: validation (ajv, the schema), source maps and spec text (yaml,
// jsonc-parser), plans, bodies and the runner. It loads on first use through specsCore() (load.ts), not
// at activation; what a caller may import directly is only the small, library-free part (types.ts,
// messages.ts, fileAccess.ts).

export { validateSpecText } from './validate';
export { jobEnvChoices, specFromJob, specFromTask, taskEnvChoices } from './fromLive';
export { SpecPlanError } from './plan';
export { specPathFromMessage } from './platformErrors';
export { applyJobPlan, applyTaskPlan, checkSpec, describeJobPlan, describePlan, nasVolumesOf, planJobSpec, planTaskSpec, searchDevices, specVolume } from './runner';
export { specServicesOver } from './specServices';
export { matchProfileRef, type ProfileRefMatch } from './profileRef';
export { refText } from './secrets';
export { jobSpecFromTemplate } from './jobTemplate';
export { specFileText, withDeployedIds, withProfileId, yamlText } from './specText';
export { environmentNotAllowed, envEntries, isEnvironmentName, specResolver } from './envSources';
export { commandLine, describeSpecFacts, shownValue, specFacts } from './whatRuns';
