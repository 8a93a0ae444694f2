// The issue's budget: a pipeline of 50 jobs in 5 stages created from YAML is one write (a batch: one round trip,
// all or nothing) and at most 10 queries in all, the request's reads included; the count does not grow with the jobs.
import { describe, expect, it } from 'vitest';
import { api, dbTiming, queryCount } from '../../helpers/app.ts';
import { ciProject } from './support.ts';

function yaml(jobsPerStage: number): string {
  const stages = ['s1', 's2', 's3', 's4', 's5'];
  const jobs = stages.flatMap((stage, i) =>
    Array.from(
      { length: jobsPerStage },
      (_, n) => `${stage}-job-${n}:\n  stage: ${stage}\n  script: [echo ${n}]\n${i > 0 && n === 0 ? `  needs: [${stages[i - 1]}-job-0]\n` : ''}`,
    ),
  );
  return `stages: [${stages.join(', ')}]\n${jobs.join('')}`;
}

describe('pipeline creation budget', () => {
  it('50 jobs in 5 stages: <= 10 queries, the same as 5 jobs', async () => {
    const counts: number[] = [];
    for (const perStage of [1, 10]) {
      const { owner, project } = await ciProject(yaml(perStage));
      const res = await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'master' } });
      expect(res.status).toBe(201);
      const jobs = await api.get(`/projects/${project.id}/pipelines/${res.body.id}/jobs`, { token: owner.token, query: { per_page: 100 } });
      expect(jobs.body).toHaveLength(perStage * 5);
      counts.push(queryCount(res));
      expect(dbTiming(res).ws).toBe(false);
    }
    expect(counts[1]).toBe(counts[0]);
    expect(counts[1]).toBeLessThanOrEqual(10);
  });
});
