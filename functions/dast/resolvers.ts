// GraphQL over on-demand DAST (13.6 shapes): Project.dastSiteProfile(id), dastSiteProfiles and dastScannerProfiles,
// the two profile types, the profiles' create/update/delete mutations and dastOnDemandScanCreate. Top-level resource
// errors where GitLab's `authorize :create_on_demand_dast_scan` fails (unlicensed, below developer, hidden project)
// and for a scan's missing profile; the models' and services' refusals in `errors`.
import { arrayConnection } from '../graphql/connection.ts';
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { toGlobalId } from '../graphql/ids.ts';
import { createOnDemandScan } from './scan.ts';
import { normalizedUrlBase, SCAN_TYPES, scannerProfileEditPath, siteProfileEditPath } from './schemas.ts';
import {
  canCreateScan,
  createScannerProfile,
  createSiteProfile,
  deleteScannerProfile,
  deleteSiteProfile,
  findSiteProfile,
  updateScannerProfile,
  updateSiteProfile,
} from './service.ts';

export const dastResolvers: Resolvers = {
  Project: {
    dastSiteProfile: (project, { id }, { ctx }) => findSiteProfile(ctx, project, id),
    dastSiteProfiles: async (project, args, { loaders }) => arrayConnection(await loaders.projectDastSiteProfiles.load(project), args, (p) => p.profile.id),
    dastScannerProfiles: async (project, args, { loaders }) =>
      arrayConnection(await loaders.projectDastScannerProfiles.load(project), args, (p) => p.profile.id),
  },
  DastSiteProfile: {
    // DastSiteProfileID serializes the number as gid://gitlab/DastSiteProfile/<id>.
    id: (s) => s.profile.id,
    profileName: (s) => s.profile.name,
    targetUrl: (s) => s.profile.targetUrl,
    normalizedTargetUrl: (s) => normalizedUrlBase(s.profile.targetUrl),
    editPath: (s) => siteProfileEditPath(s.project.project.pathWithNamespace, s.profile.id),
    // Site validation is not part of 13.6's on-demand scans here: every profile is unvalidated.
    validationStatus: () => 'NONE',
    userPermissions: (s, _args, { ctx }) => ({ createOnDemandDastScan: canCreateScan(ctx, s.project) }),
  },
  DastScannerProfile: {
    // The deprecated `id` (ID) and `globalId` (DastScannerProfileID) name the same global id.
    id: (s) => toGlobalId('DastScannerProfile', s.profile.id),
    globalId: (s) => s.profile.id,
    profileName: (s) => s.profile.name,
    spiderTimeout: (s) => s.profile.spiderTimeout,
    targetTimeout: (s) => s.profile.targetTimeout,
    // The schema's DastScanTypeEnum has PASSIVE only (the spec's): no profile here is written active.
    scanType: (s) => (s.profile.scanType === SCAN_TYPES.PASSIVE ? 'PASSIVE' : null),
    useAjaxSpider: (s) => s.profile.useAjaxSpider,
    showDebugMessages: (s) => s.profile.showDebugMessages,
    editPath: (s) => scannerProfileEditPath(s.project.project.pathWithNamespace, s.profile.id),
  },
  Mutation: {
    dastSiteProfileCreate: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() =>
        createSiteProfile({ ctx, input: { fullPath: input.fullPath, name: input.profileName, targetUrl: input.targetUrl } }),
      );
      return { clientMutationId: input.clientMutationId, errors, id: value?.profile.id ?? null };
    },
    dastSiteProfileUpdate: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() =>
        updateSiteProfile({ ctx, input: { fullPath: input.fullPath, id: Number(input.id), name: input.profileName, targetUrl: input.targetUrl } }),
      );
      return { clientMutationId: input.clientMutationId, errors, id: value?.profile.id ?? null };
    },
    dastSiteProfileDelete: async (_root, { input }, { ctx }) => {
      const { errors } = await mutation(() => deleteSiteProfile({ ctx, input: { fullPath: input.fullPath, id: Number(input.id) } }));
      return { clientMutationId: input.clientMutationId, errors };
    },
    dastScannerProfileCreate: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() =>
        createScannerProfile({
          ctx,
          input: {
            fullPath: input.fullPath,
            name: input.profileName,
            spiderTimeout: input.spiderTimeout,
            targetTimeout: input.targetTimeout,
            scanType: input.scanType,
            useAjaxSpider: input.useAjaxSpider,
            showDebugMessages: input.showDebugMessages,
          },
        }),
      );
      const id = value?.profile.id ?? null;
      return { clientMutationId: input.clientMutationId, errors, id, globalId: id };
    },
    dastScannerProfileUpdate: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() =>
        updateScannerProfile({
          ctx,
          input: {
            fullPath: input.fullPath,
            id: Number(input.id),
            name: input.profileName,
            spiderTimeout: input.spiderTimeout,
            targetTimeout: input.targetTimeout,
            scanType: input.scanType,
            useAjaxSpider: input.useAjaxSpider,
            showDebugMessages: input.showDebugMessages,
          },
        }),
      );
      return { clientMutationId: input.clientMutationId, errors, id: value?.profile.id ?? null };
    },
    dastScannerProfileDelete: async (_root, { input }, { ctx }) => {
      const { errors } = await mutation(() => deleteScannerProfile({ ctx, input: { fullPath: input.fullPath, id: Number(input.id) } }));
      return { clientMutationId: input.clientMutationId, errors };
    },
    dastOnDemandScanCreate: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() =>
        createOnDemandScan({
          ctx,
          input: {
            fullPath: input.fullPath,
            siteProfileId: Number(input.dastSiteProfileId),
            scannerProfileId: input.dastScannerProfileId == null ? null : Number(input.dastScannerProfileId),
          },
        }),
      );
      return { clientMutationId: input.clientMutationId, errors, pipelineUrl: value };
    },
  },
};
