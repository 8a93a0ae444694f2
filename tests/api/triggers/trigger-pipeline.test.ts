// POST /projects/:id/(ref/:ref/)trigger/pipeline (GitLab 13.6 lib/api/triggers.rb, Ci::PipelineTriggerService): no
// user authentication, the trigger's token decides; the pipeline runs as the trigger's owner.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { countPipelines, createTrigger, ISO, triggerFixture, userBasic } from './support.ts';

const PIPELINE_KEYS = [
  'id',
  'sha',
  'ref',
  'status',
  'created_at',
  'updated_at',
  'web_url',
  'before_sha',
  'tag',
  'yaml_errors',
  'user',
  'started_at',
  'finished_at',
  'committed_at',
  'duration',
  'coverage',
  'detailed_status',
];

async function variablesOf(token: string, projectId: number, pipelineId: number) {
  const res = await api.get(`/projects/${projectId}/pipelines/${pipelineId}/variables`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

describe('a trigger call', () => {
  it('creates a trigger pipeline as the owner, with the variables and TRIGGER_PAYLOAD (form)', async () => {
    const fx = await triggerFixture();
    const t = await createTrigger(fx.maintainer.token, fx.project.id);
    const res = await api.post(`/projects/${fx.project.id}/trigger/pipeline`, {
      form: { token: t.token, ref: 'master', 'variables[DEPLOY]': 'yes', 'variables[TARGET]': '<prod>' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(PIPELINE_KEYS);
    expect(res.body).toMatchObject({ sha: fx.sha, ref: 'master', status: 'pending', tag: false, yaml_errors: null, user: userBasic(fx.maintainer.user) });
    expect(await variablesOf(fx.owner.token, fx.project.id, res.body.id)).toEqual([
      { variable_type: 'env_var', key: 'DEPLOY', value: 'yes' },
      { variable_type: 'env_var', key: 'TARGET', value: '<prod>' },
      {
        variable_type: 'file',
        key: 'TRIGGER_PAYLOAD',
        value: `{"ref":"master","variables":{"DEPLOY":"yes","TARGET":"\\u003cprod\\u003e"},"id":"${fx.project.id}"}`,
      },
    ]);
    const trigger = await api.get(`/projects/${fx.project.id}/triggers/${t.id}`, { token: fx.maintainer.token });
    expect(trigger.body.last_used).toEqual(ISO);
  });

  it('takes a JSON body and the project path; variables default to {}', async () => {
    const fx = await triggerFixture();
    const t = await createTrigger(fx.owner.token, fx.project.id);
    const path = encodeURIComponent(fx.project.path_with_namespace);
    const res = await api.post(`/projects/${path}/trigger/pipeline`, { body: { ref: 'master', token: t.token } });
    expect(res.status).toBe(201);
    expect(await variablesOf(fx.owner.token, fx.project.id, res.body.id)).toEqual([
      { variable_type: 'file', key: 'TRIGGER_PAYLOAD', value: `{"ref":"master","id":"${fx.project.path_with_namespace}","variables":{}}` },
    ]);
  });

  it('uses the ref of the URL over the body (ref/:ref/trigger/pipeline), and full ref names', async () => {
    const fx = await triggerFixture();
    const t = await createTrigger(fx.owner.token, fx.project.id);
    const res = await api.post(`/projects/${fx.project.id}/ref/master/trigger/pipeline`, { query: { token: t.token }, body: { ref: 'refs/heads/other' } });
    expect([res.status, res.body.ref]).toEqual([201, 'master']);
    const full = await api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: 'refs/heads/master', token: t.token } });
    expect([full.status, full.body.ref]).toEqual([201, 'master']);
  });

  it('keeps a pipeline for an invalid .gitlab-ci.yml, failed with its yaml_errors (save_on_errors)', async () => {
    const fx = await triggerFixture('rspec:\n  script: x\n  when: later\n');
    const t = await createTrigger(fx.owner.token, fx.project.id);
    const res = await api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: 'master', token: t.token } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'failed', yaml_errors: 'jobs:rspec when should be one of: on_success, on_failure, always, manual or delayed' });
  });
});

describe('refused trigger calls store nothing', () => {
  const cases: Array<
    [string, (fx: Awaited<ReturnType<typeof triggerFixture>>, token: string, otherToken: string) => Promise<{ status: number; body: unknown }>, number, unknown]
  > = [
    [
      'missing ref and token',
      (fx) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: {} }),
      400,
      { error: 'ref is missing, token is missing' },
    ],
    ['a blank ref', (fx, token) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: ' ', token } }), 400, { error: 'ref is empty' }],
    [
      'variables that are not a Hash',
      (fx, token) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: 'master', token, variables: 'x' } }),
      400,
      { error: 'variables is invalid' },
    ],
    [
      'variables that are not strings',
      (fx, token) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: 'master', token, variables: { A: 1 } } }),
      400,
      { message: 'variables needs to be a map of key-valued strings' },
    ],
    [
      'nested form variables',
      (fx, token) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { form: { ref: 'master', token, 'variables[A][B]': 'x' } }),
      400,
      { message: 'variables needs to be a map of key-valued strings' },
    ],
    [
      'a pipeline hook',
      (fx, token) => api.post(`/projects/${fx.project.id}/ref/master/trigger/pipeline`, { query: { token }, headers: { 'X-Gitlab-Event': 'Pipeline Hook' } }),
      403,
      { message: '403 Forbidden' },
    ],
    [
      'an unknown token',
      (fx) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: 'master', token: 'f'.repeat(30) } }),
      404,
      { message: '404 Not Found' },
    ],
    [
      "another project's token",
      (fx, _token, other) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: 'master', token: other } }),
      404,
      { message: '404 Not Found' },
    ],
    [
      'an unknown project',
      (_fx, token) => api.post('/projects/999999999/trigger/pipeline', { body: { ref: 'master', token } }),
      404,
      { message: '404 Not Found' },
    ],
    [
      'an unknown ref',
      (fx, token) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: 'nope', token } }),
      400,
      { message: { base: ['Reference not found'] } },
    ],
    [
      'a variable named TRIGGER_PAYLOAD',
      (fx, token) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: 'master', token, variables: { TRIGGER_PAYLOAD: 'x' } } }),
      400,
      { message: { base: ['Failed to persist the pipeline: Validation failed: Variables is invalid'] } },
    ],
  ];

  it.each(cases)('%s', async (_name, call, status, answer) => {
    const fx = await triggerFixture();
    const other = await triggerFixture();
    const t = await createTrigger(fx.owner.token, fx.project.id);
    const foreign = await createTrigger(other.owner.token, other.project.id);
    const res = await call(fx, t.token, foreign.token);
    expect([res.status, res.body]).toEqual([status, answer]);
    // The push of .gitlab-ci.yml made the only pipeline.
    expect(await countPipelines(fx.owner.token, fx.project.id)).toBe(1);
    expect((await api.get(`/projects/${fx.project.id}/triggers/${t.id}`, { token: fx.owner.token })).body.last_used).toBeNull();
  });

  it('refuses a trigger whose owner can no longer create pipelines', async () => {
    const fx = await triggerFixture();
    const t = await createTrigger(fx.maintainer.token, fx.project.id);
    const demoted = await api.put(`/projects/${fx.project.id}/members/${fx.maintainer.user.id}`, { token: fx.owner.token, body: { access_level: 20 } });
    expect(demoted.status).toBe(200);
    const res = await api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { ref: 'master', token: t.token } });
    expect([res.status, res.body]).toEqual([400, { message: { base: ['Insufficient permissions to create a new pipeline'] } }]);
    expect(await countPipelines(fx.owner.token, fx.project.id)).toBe(1);
  });
});
