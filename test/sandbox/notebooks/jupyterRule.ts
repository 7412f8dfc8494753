// Which sandbox tasks run a Jupyter server at their public URL (docs/notebooks.md, "Sandbox"): a service
// whose image is a Jupyter image (the create wizard's Jupyter template, `quay.io/jupyter/…`, `jupyter/…`)
// or whose start command runs `jupyter lab|server|notebook`, on a remote port 8888 (or its `--port`). Like
// the Jupyter images, it takes its token from the service env `JUPYTER_TOKEN` (the extension generates it
// and passes it as a secret); without one it makes up a token nobody knows. Its working folder is the
// service's first NAS mount (the volume), else a temporary folder standing for it.

import type { ServiceSpec } from '../../../src/core/compute/api';
import { parseEnvText } from '../../../src/core/specs/secrets';

export interface JupyterServerSpec {
  servicePort: number;
  /** From the service env; undefined when the service sets none. */
  token: string | undefined;
  /** The NAS volume mounted as the working folder, if any. */
  storageId: number | undefined;
}

const DEFAULT_PORT = 8888;
const MAX_COMMAND_CHARS = 8_192;

function commandTokens(service: ServiceSpec): string[] {
  const script = service.start_script_v2;
  const line = [script?.command ?? '', ...(script?.args ?? [])].join(' ');
  return line.length > MAX_COMMAND_CHARS ? [] : line.split(/\s+/).filter((token) => token.length > 0);
}

/** The Jupyter server a service runs, or undefined when it is not one by the rule above. */
export function jupyterServerOf(service: ServiceSpec): JupyterServerSpec | undefined {
  const tokens = commandTokens(service);
  const image = service.service_image.trim();
  const jupyterImage = /^(quay\.io\/)?jupyter\//.test(image);
  const jupyterCommand = tokens.some((token, index) => /(^|\/)jupyter$/.test(token) && /^(lab|server|notebook)$/.test(tokens[index + 1] ?? ''));
  if (!jupyterImage && !jupyterCommand) return undefined;
  const portFlag = tokens.map((token) => /^--(?:ServerApp\.)?port=(\d{1,5})$/.exec(token)?.[1]).find((port) => port !== undefined);
  const servicePort = portFlag !== undefined ? Number(portFlag) : DEFAULT_PORT;
  if (!service.remote_ports.some((port) => port.service_port === servicePort)) return undefined;
  const token = parseEnvText(service.env)['JUPYTER_TOKEN'];
  return { servicePort, token: token !== undefined && token.length > 0 ? token : undefined, storageId: service.nas_storage_config?.[0]?.storage_id };
}
