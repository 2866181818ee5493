# The API (and its workers), built from the repository root: docker build -f docker/api.Dockerfile .
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN node tools/build.mjs --force
# What runs the service and nothing else: no compilers, test runners, browsers' drivers or test identity providers.
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/tools/dist.cjs ./tools/dist.cjs
COPY package.json ./
EXPOSE 3000
USER node
CMD ["node", "-r", "./tools/dist.cjs", "dist/api/apps/api/src/main.js"]
