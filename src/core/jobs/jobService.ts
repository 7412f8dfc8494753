// Batch jobs on the platform: the only caller of the client for job.create, job.detail and job.stop, and
// what following one job reads (its pods and their logs: polling.ts followJob)
// (the editor, the agent tools and the MCP server all come here). Every change wakes the store once.

import type { NodeDetail } from '../compute/api';
import { NO_WAKE, send, type ClientSource, type WakeStore } from '../state/servicePorts';
import type { NodeLogTarget } from './nodeLogTail';
import type { JobCreateBody, JobDetail } from './operations';
import { listPods, type JobReads } from './polling';

export class JobService implements JobReads {
  constructor(
    private readonly client: ClientSource,
    private readonly wake: WakeStore = NO_WAKE,
  ) {}

  async create(body: JobCreateBody, signal?: AbortSignal): Promise<number> {
    const { task_id: jobId } = await send(this.client, 'job.create', body, signal);
    await this.wake();
    return jobId;
  }

  detail(jobId: number, signal?: AbortSignal): Promise<JobDetail> {
    return send(this.client, 'job.detail', { task_id: jobId }, signal);
  }

  /** Every pod of the job (its node list, paged), oldest first. */
  pods(jobId: number, signal?: AbortSignal): Promise<NodeDetail[]> {
    return listPods(this.client(), jobId, signal);
  }

  /** One read of a pod's whole log (NodeLogTail keeps what is new). */
  nodeLog(node: NodeLogTarget, signal?: AbortSignal): Promise<{ logs: string; logsFrom: number }> {
    return send(this.client, 'node.log', { ...node }, signal);
  }

  /** Kills the job's pods now; a job cannot be resumed. The one place job.stop is sent from. */
  async stop(jobId: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'job.stop', { task_id: jobId }, signal);
    await this.wake();
  }
}
